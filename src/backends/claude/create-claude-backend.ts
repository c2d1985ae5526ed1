import type { AgentBackend, Logger } from '../../ports.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import type { BackendContext } from '../backend-context.js';
import { ClaudeBackend } from './claude-backend.js';
import { claudeCredentials } from './claude-credentials.js';

/** The Claude backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createClaudeBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const agentEnv = agentEnvironment(ctx, claudeCredentials(ctx.env));
  const backend = new ClaudeBackend({
    command: config.claudeCommand,
    model: config.model,
    effort: config.effort,
    extraArgs: config.claudeExtraArgs,
    outputFormat: config.outputFormat,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger,
    now: () => ctx.clock.now(),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/**
 * The Claude backend of ralph-import: one JSON call with the tools the request names, no model
 * or effort of a project (there is none yet), in `env` (see conversionEnvironment).
 */
export function createConversionBackend(command: readonly string[], env: NodeJS.ProcessEnv, logger: Logger): AgentBackend {
  return new ClaudeBackend({ command, model: '', effort: '', outputFormat: 'json', allowedTools: [], env, logger, killGraceMs: 3000 });
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export function checkClaudeBeforeLoop(ctx: BackendContext): Promise<void> {
  const { config } = ctx;
  return checkCliBeforeLoop(ctx, config.claudeCommand, config.claudeMinVersion, agentCliAbout('claude'), agentEnvFor(ctx, claudeCredentials(ctx.env)).env);
}
