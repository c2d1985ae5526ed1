import type { ProcessRunner, RunOptions, RunResult } from '../ports.js';
import { run } from './process.js';

/** The ProcessRunner port on `run`: output as text, never throws for a non-zero exit. */
export function createProcessRunner(): ProcessRunner {
  return {
    async run(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
      const outcome = await run(file, args, options);
      const result: RunResult = {
        exitCode: outcome.exitCode,
        stdout: outcome.stdout.toString('utf8'),
        stderr: outcome.stderr.toString('utf8'),
        timedOut: outcome.end === 'timeout',
        durationMs: outcome.durationMs,
      };
      if (outcome.failure !== undefined) result.spawnError = outcome.failure;
      return result;
    },
  };
}
