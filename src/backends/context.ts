import type { RalphConfig } from '../config/keys.js';
import type { Redactor } from '../core/secret-redactor.js';
import type { CommandContainer } from '../infra/process.js';
import type { Clock, Logger, ProcessRunner } from '../ports.js';
import type { RalphPaths } from '../state/paths.js';

/**
 * What a backend may need to be built or checked. The sandbox and the redactor come in here,
 * from the command that owns them, so no backend reads them from a global.
 */
export interface BackendContext {
  config: RalphConfig;
  paths: RalphPaths;
  runner: ProcessRunner;
  clock: Clock;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** The run's sandbox (--sandbox): every agent call is started through it. */
  sandbox?: CommandContainer;
  /** The redactor of what the agent prints, asked at each call (see AgentProcessHost). */
  outputRedactor: () => Redactor;
}
