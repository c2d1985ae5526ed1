import type { RalphConfig } from '../config/keys.js';
import type { Clock, Logger, ProcessRunner } from '../ports.js';
import type { RalphPaths } from '../state/paths.js';

/**
 * What a backend may need to be built or checked. Apart from the registry: the registry loads
 * each backend's factory lazily, and a factory that took this type from the registry would tie
 * the two into a circle.
 */
export interface BackendContext {
  config: RalphConfig;
  paths: RalphPaths;
  runner: ProcessRunner;
  clock: Clock;
  logger: Logger;
  env: NodeJS.ProcessEnv;
}
