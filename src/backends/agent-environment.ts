import type { AgentResult } from '../agent-result.js';
import { buildAgentEnv, type AgentEnv, type AgentOwnEnv } from '../core/agent-env.js';
import { describeEnvFilter } from '../core/secret-env.js';
import type { AgentBackend, AgentRequest } from '../ports.js';
import type { BackendContext } from './context.js';

/**
 * The environment an agent CLI runs in — every run of it: the loop's calls, its version check
 * and any other auxiliary run. Ralph's environment without secrets the agent has no need for;
 * `own` is what the backend declares as the agent's own (see each backend's *-credentials.ts).
 */
export function agentEnvFor(ctx: BackendContext, own: AgentOwnEnv): AgentEnv {
  return buildAgentEnv(ctx.env, ctx.config.agentEnv, own);
}

/**
 * agentEnvFor, and what was held back and any --agent-env name that is not set said once, when
 * the backend is made, so a user who wonders why the agent lacks a variable finds the answer
 * in the log.
 */
export function agentEnvironment(ctx: BackendContext, own: AgentOwnEnv): AgentEnv {
  const { logger } = ctx;
  const agentEnv = agentEnvFor(ctx, own);
  const said = describeEnvFilter('Agent', agentEnv, '--agent-env NAME');
  if (said) logger.info(said);
  if (agentEnv.missing.length > 0)
    logger.warn(
      `--agent-env/AGENT_ENV names ${agentEnv.missing.join(', ')}, which ${agentEnv.missing.length === 1 ? 'is' : 'are'} not set in the environment.`,
    );
  return agentEnv;
}

/** The advice's extra sentence when an agent is refused its credentials and Ralph withheld variables from it. */
export function withheldAdvice(displayName: string, withheld: readonly string[]): string | undefined {
  if (withheld.length === 0) return undefined;
  return (
    `Ralph withheld ${withheld.join(', ')} from the ${displayName} environment; if ${displayName} needs one of them, ` +
    'pass it with --agent-env NAME (or AGENT_ENV in .ralphrc).'
  );
}

/**
 * The backend, whose credential failures also name what Ralph withheld: an agent refused its
 * credentials may be missing a key Ralph kept from it (one its configuration names in a way
 * Ralph does not read), and the CLI's own advice ("log in again") would never say so.
 */
export function adviseOnWithheld(backend: AgentBackend, withheld: readonly string[]): AgentBackend {
  const extra = withheldAdvice(backend.displayName, withheld);
  if (extra === undefined) return backend;
  return {
    name: backend.name,
    displayName: backend.displayName,
    describe: (request: AgentRequest) => backend.describe(request),
    describeOutput: (request: AgentRequest) => backend.describeOutput(request),
    run: async (request: AgentRequest, signal: AbortSignal): Promise<AgentResult> => {
      const result = await backend.run(request, signal);
      const outcome = result.outcome;
      if (outcome.kind !== 'unrecoverable' || outcome.refusedCredentials !== true) return result;
      return { ...result, outcome: { ...outcome, advice: `${outcome.advice}\n${extra}` } };
    },
  };
}
