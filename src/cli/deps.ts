import type { Clock, ProcessRunner } from '../ports.js';
import { createProcessRunner } from '../infra/process-runner.js';
import { systemClock } from '../infra/system-clock.js';

/**
 * The real effects a command hands to the code it runs. Every entry point
 * builds them here, and features receive them as arguments instead of
 * constructing their own, so a test passes fakes in the same places.
 */
export interface DefaultDeps {
  /** Runs short helper commands such as git. */
  runner: ProcessRunner;
  clock: Clock;
}

export function createDefaultDeps(): DefaultDeps {
  return { runner: createProcessRunner(), clock: systemClock };
}
