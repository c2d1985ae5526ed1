import type { AgentOwnEnv } from '../../core/agent-env.js';
import type { AgentBackend } from '../../ports.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { cliSettingValues, processHost } from '../cli-agent/cli-context.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { commandOnly } from '../cli-agent/argv.js';
import type { BackendContext } from '../context.js';
import { OPENCODE_AGENT } from './opencode-agent.js';
import type { AgentModule, ReplayOptions } from '../agent-module.js';
import type { AgentCli } from '../cli-agent/cli-agent.js';
import { opencodeBackend, opencodeCli } from './opencode-backend.js';
import { opencodeCredentials, readOpencodeUserConfig } from './opencode-credentials.js';

/** OpenCode's own settings (OPENCODE_*), its model provider's key and the keys its configuration names. */
function opencodeOwn(ctx: BackendContext): AgentOwnEnv {
  const settings = cliSettingValues(ctx.config, OPENCODE_AGENT.settings);
  return opencodeCredentials(settings.model, settings.extraArgs, readOpencodeUserConfig(ctx.env));
}

/** The OpenCode backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createOpencodeBackend(ctx: BackendContext): AgentBackend {
  const settings = cliSettingValues(ctx.config, OPENCODE_AGENT.settings);
  const agentEnv = agentEnvironment(ctx, opencodeOwn(ctx));
  const backend = opencodeBackend({
    ...processHost(ctx, agentEnv.env),
    settings,
    allowedTools: ctx.config.allowedTools,
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old OpenCode is one clear message before the loop starts, not a loop of failures. */
export function checkOpencodeBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, OPENCODE_AGENT, agentEnvFor(ctx, opencodeOwn(ctx)).env);
}

/** OpenCode's reader and classifier for its recorded output (a mock script's `replay`). */
export function replayOpencode(options: ReplayOptions): AgentCli<unknown> {
  return opencodeCli({ settings: commandOnly(['opencode']), allowedTools: [], env: {}, now: options.now });
}

/** The heavy half of OpenCode, as its declaration's `load` hands it to the registry. */
export const opencodeModule = { create: createOpencodeBackend, preflight: checkOpencodeBeforeLoop, replay: replayOpencode } satisfies AgentModule;
