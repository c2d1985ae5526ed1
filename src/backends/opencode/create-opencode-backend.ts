import type { AgentBackend } from '../../ports.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import { agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../registry.js';
import { OpencodeBackend } from './opencode-backend.js';

/** The OpenCode backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createOpencodeBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  // OpenCode's own settings (OPENCODE_CONFIG, OPENCODE_CONFIG_CONTENT, …) reach it like
  // Claude's reach Claude; a provider's API key still needs --agent-env.
  const own = Object.keys(ctx.env).filter((name) => name.startsWith('OPENCODE_'));
  const agentEnv = agentEnvironment(ctx, { alsoPass: own });
  return new OpencodeBackend({
    command: config.opencodeCommand,
    model: config.opencodeModel,
    extraArgs: config.opencodeExtraArgs,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger,
    now: () => ctx.clock.now(),
  });
}

/** A missing or too old OpenCode is one clear message before the loop starts, not a loop of failures. */
export function checkOpencodeBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, ctx.config.opencodeCommand, ctx.config.opencodeMinVersion, agentCliAbout('opencode'));
}
