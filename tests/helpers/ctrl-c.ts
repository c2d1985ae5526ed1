import type { ResultPromise } from 'execa';
import { waitFor } from './wait-for.js';

/** What Ralph prints on stderr for each Ctrl+C it takes (src/cli/commands/stop-signals.ts, the restore's handler). */
const ANSWER = /received: stopping|Forced exit|Finishing the .* in progress|Still finishing/g;

/**
 * Presses Ctrl+C `times` times, each once Ralph has answered the one before on stderr: two
 * signals sent back to back can reach the process as one, and a fixed pause between them is
 * too short on a busy machine.
 */
export async function pressCtrlC(child: ResultPromise, times: number): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const answers = (): number => stderr.match(ANSWER)?.length ?? 0;
  for (let i = 1; i <= times; i += 1) {
    child.kill('SIGINT');
    if (i < times) await waitFor(() => answers() >= i, `Ralph to answer Ctrl+C number ${i}`);
  }
}
