import { stopOwnedProcesses } from './process-sweep.js';
import { runMarker } from './run-marker.js';
import type { SpawnedProcess } from '../core/process-selection.js';

/**
 * The watchdog: a small process of its own (own session, so neither Ctrl+C in
 * the terminal nor a kill of Ralph's group reaches it) that holds the read end
 * of a pipe from Ralph. Ralph writes "<pid> <start time>" for every command it
 * starts. When the pipe reaches end-of-file — Ralph exited, however it died —
 * it ends every process that carries the run's marker or descends from a
 * recorded command, then exits itself.
 *
 * argv: <run token> <grace ms>
 */
/** Watches `input` until it ends, then sweeps; its state lives here, not in the module. */
function watch(input: NodeJS.ReadStream, token: string | undefined, grace: number): void {
  const spawned: SpawnedProcess[] = [];
  let buffered = '';
  let done = false;
  const sweep = async (): Promise<void> => {
    if (done || token === undefined) return;
    done = true;
    await stopOwnedProcesses({ marker: runMarker(token), spawned }, grace);
    process.exit(0);
  };
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [pid, startTime] = line.trim().split(' ');
      if (pid && /^\d+$/.test(pid)) spawned.push({ pid: Number(pid), startTime: startTime ?? '' });
    }
  });
  input.on('end', () => void sweep());
  input.on('close', () => void sweep());
  input.on('error', () => void sweep());
}

const [token, graceArg] = process.argv.slice(2);
const grace = Number(graceArg ?? 1000);
watch(process.stdin, token, Number.isFinite(grace) ? grace : 1000);
// The terminal going away is no reason to stop watching.
process.on('SIGHUP', () => undefined);
process.on('SIGINT', () => undefined);
