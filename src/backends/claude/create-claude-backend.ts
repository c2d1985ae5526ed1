import { buildAgentEnv } from '../../core/agent-env.js';
import { describeEnvFilter } from '../../core/secret-env.js';
import type { AgentBackend, Logger } from '../../ports.js';
import type { BackendContext } from '../registry.js';
import { ClaudeBackend } from './claude-backend.js';
import { checkClaudeCli } from './claude-version-check.js';

/** The Claude backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createClaudeBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const agentEnv = buildAgentEnv(ctx.env, config.agentEnv);
  const said = describeEnvFilter('Agent', agentEnv, '--agent-env NAME');
  if (said) logger.info(said);
  if (agentEnv.missing.length > 0)
    logger.warn(
      `--agent-env/AGENT_ENV names ${agentEnv.missing.join(', ')}, which ${agentEnv.missing.length === 1 ? 'is' : 'are'} not set in the environment.`,
    );
  return new ClaudeBackend({
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
}

/**
 * The Claude backend of ralph-import: one JSON call with the tools the request names, no model
 * or effort of a project (there is none yet).
 */
export function createConversionBackend(command: readonly string[], env: NodeJS.ProcessEnv, logger: Logger): AgentBackend {
  return new ClaudeBackend({ command, model: '', effort: '', outputFormat: 'json', allowedTools: [], env, logger, killGraceMs: 3000 });
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export async function checkClaudeBeforeLoop(ctx: BackendContext): Promise<void> {
  const { config, logger } = ctx;
  const version = await checkClaudeCli(ctx.runner, config.claudeCommand, config.claudeMinVersion, ctx.paths.project, (m) => logger.warn(m));
  if (version) logger.info(`Claude Code ${version}`);
}
