import { execa } from 'execa';
import type { ProcessRunner, RunOptions, RunResult } from '../ports.js';

/** ProcessRunner on execa: buffered output, never throws for a non-zero exit. */
export function createExecaRunner(): ProcessRunner {
  return {
    async run(file, args, options: RunOptions): Promise<RunResult> {
      const started = Date.now();
      const result = await execa(file, args, {
        cwd: options.cwd,
        reject: false,
        stripFinalNewline: false,
        ...(options.env ? { env: options.env, extendEnv: false } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
        ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
        ...(options.signal ? { cancelSignal: options.signal } : {}),
      });
      const spawnError = result.failed && result.exitCode === undefined && !result.timedOut && !result.isCanceled ? result.shortMessage : undefined;
      const out: RunResult = {
        exitCode: result.exitCode,
        stdout: typeof result.stdout === 'string' ? result.stdout : '',
        stderr: typeof result.stderr === 'string' ? result.stderr : '',
        timedOut: result.timedOut,
        durationMs: Date.now() - started,
      };
      if (spawnError !== undefined) out.spawnError = spawnError;
      return out;
    },
  };
}
