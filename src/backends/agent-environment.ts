import { buildAgentEnv, type AgentEnv, type AgentOwnEnv } from '../core/agent-env.js';
import { describeEnvFilter } from '../core/secret-env.js';
import type { BackendContext } from './registry.js';

export interface AgentEnvironmentOptions {
  /** The agent's own variables present in the environment, passed on like --agent-env names. */
  alsoPass?: readonly string[];
  /** Which variables are the agent's own and which belong to another agent (see buildAgentEnv). */
  own?: AgentOwnEnv;
}

/**
 * The environment an agent CLI runs in: Ralph's environment without secrets the agent has no
 * need for. What was held back, and any --agent-env name that is not set, is said once when the
 * backend is made, so a user who wonders why the agent lacks a variable finds the answer in the log.
 */
export function agentEnvironment(ctx: BackendContext, options: AgentEnvironmentOptions = {}): AgentEnv {
  const { config, logger } = ctx;
  const agentEnv = buildAgentEnv(ctx.env, [...config.agentEnv, ...(options.alsoPass ?? [])], options.own);
  const said = describeEnvFilter('Agent', agentEnv, '--agent-env NAME');
  if (said) logger.info(said);
  const missing = agentEnv.missing.filter((name) => config.agentEnv.includes(name));
  if (missing.length > 0)
    logger.warn(`--agent-env/AGENT_ENV names ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not set in the environment.`);
  return agentEnv;
}
