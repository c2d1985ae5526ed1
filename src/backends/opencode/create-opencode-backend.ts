import type { AgentOwnEnv } from '../../core/agent-env.js';
import type { AgentBackend } from '../../ports.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../backend-context.js';
import { OpencodeBackend } from './opencode-backend.js';
import { opencodeCredentials, readOpencodeUserConfig } from './opencode-credentials.js';

/** OpenCode's own settings (OPENCODE_*), its model provider's key and the keys its configuration names. */
function opencodeOwn(ctx: BackendContext): AgentOwnEnv {
  return opencodeCredentials(ctx.config.opencodeModel, ctx.config.opencodeExtraArgs, readOpencodeUserConfig(ctx.env));
}

/** The OpenCode backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createOpencodeBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const agentEnv = agentEnvironment(ctx, opencodeOwn(ctx));
  const backend = new OpencodeBackend({
    command: config.opencodeCommand,
    model: config.opencodeModel,
    extraArgs: config.opencodeExtraArgs,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger,
    now: () => ctx.clock.now(),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old OpenCode is one clear message before the loop starts, not a loop of failures. */
export function checkOpencodeBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, ctx.config.opencodeCommand, ctx.config.opencodeMinVersion, agentCliAbout('opencode'), agentEnvFor(ctx, opencodeOwn(ctx)).env);
}
