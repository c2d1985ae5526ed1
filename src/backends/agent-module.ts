import type { AgentBackend } from '../ports.js';
import type { AgentCli } from './cli-agent/cli-agent.js';
import type { BackendContext } from './context.js';

/** What reading an agent's recorded output needs: the time its reset times are measured from. */
export interface ReplayOptions {
  now: () => number;
  /** The zone of a reset time the output gives without one (default: this machine's). */
  timeZone?: string;
}

/** The heavy half of an agent, loaded only when a run needs it (its declaration's `load`). */
export interface AgentModule {
  /** Builds the backend of a loop. */
  create(ctx: BackendContext): AgentBackend;
  /** Checks before the first call that the agent can run at all (throws a RalphError if not). */
  preflight?(ctx: BackendContext): Promise<void>;
  /** The agent CLI's reader and classifier, for output recorded earlier (the mock's `replay`). */
  replay?(options: ReplayOptions): AgentCli<unknown>;
}
