import { ExitCode } from '../../errors.js';
import type { ExitGuard } from './exit-guard.js';

export interface StopSignalDeps {
  /** Aborted at the first signal: the loop stops the agent and saves its state. */
  abort: AbortController;
  guard: ExitGuard;
  write(text: string): void;
  exit(code: number): void;
}

/**
 * Ctrl+C / SIGTERM for a running loop. The first asks the loop to stop and save
 * its state; another Ctrl+C forces an exit at once — unless a rollback is
 * writing files, which is finished first (however often Ctrl+C is pressed), so
 * the user's tree is never left half restored.
 */
export function createStopSignalHandler(d: StopSignalDeps): (signal: NodeJS.Signals) => void {
  let signals = 0;
  let exiting = false;
  return (signal) => {
    signals += 1;
    if (signals === 1 || signal !== 'SIGINT') {
      if (signals === 1) d.write(`\n${signal} received: stopping the agent and saving state (Ctrl+C again to force)...\n`);
      d.abort.abort(signal);
      return;
    }
    const busy = d.guard.busy();
    if (!busy) {
      d.write('\nForced exit.\n');
      d.exit(ExitCode.Sigint);
      return;
    }
    if (exiting) {
      d.write(`\nStill finishing the ${busy} in progress…\n`);
      return;
    }
    exiting = true;
    d.write(`\nFinishing the ${busy} in progress… Ralph exits as soon as it is done.\n`);
    void d.guard.whenIdle().then(() => {
      d.write('Forced exit.\n');
      d.exit(ExitCode.Sigint);
    });
  };
}
