import type { AgentBackend, Logger } from '../../ports.js';
import type { Redactor } from '../../core/secret-redactor.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { cliSettingValues, processHost } from '../cli-agent/cli-context.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { commandOnly } from '../cli-agent/argv.js';
import type { BackendContext } from '../context.js';
import { CLAUDE_AGENT } from './claude-agent.js';
import type { AgentModule, ReplayOptions } from '../agent-module.js';
import type { AgentCli } from '../cli-agent/cli-agent.js';
import { claudeBackend, claudeCli } from './claude-backend.js';
import { claudeCredentials } from './claude-credentials.js';

/** The Claude backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createClaudeBackend(ctx: BackendContext): AgentBackend {
  const { config } = ctx;
  const agentEnv = agentEnvironment(ctx, claudeCredentials(ctx.env));
  const settings = cliSettingValues(config, CLAUDE_AGENT.settings);
  const backend = claudeBackend({
    ...processHost(ctx, agentEnv.env),
    settings,
    outputFormat: config.outputFormat,
    // Only stream-json carries the subscription windows: asked for when a rule needs them.
    readWindows: config.parkAt !== null || config.stopAt !== null,
    allowedTools: config.allowedTools,
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/**
 * The Claude backend of ralph-import: one JSON call with the tools the request names, no model
 * or effort of a project (there is none yet), in `env` (see conversionEnvironment).
 */
export function createConversionBackend(command: readonly string[], env: NodeJS.ProcessEnv, logger: Logger, outputRedactor: () => Redactor): AgentBackend {
  return claudeBackend({ settings: commandOnly(command), outputFormat: 'json', allowedTools: [], env, logger, outputRedactor, killGraceMs: 3000 });
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export function checkClaudeBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, CLAUDE_AGENT, agentEnvFor(ctx, claudeCredentials(ctx.env)).env);
}

/** Claude Code's reader and classifier for its recorded output (a mock script's `replay`). */
export function replayClaude(options: ReplayOptions): AgentCli<unknown> {
  return claudeCli({ settings: commandOnly(['claude']), outputFormat: 'json', allowedTools: [], ...options });
}

/** The heavy half of Claude Code, as its declaration's `load` hands it to the registry. */
export const claudeModule = { create: createClaudeBackend, preflight: checkClaudeBeforeLoop, replay: replayClaude } satisfies AgentModule;
