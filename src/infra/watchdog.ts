import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SpawnRecord } from './run-marker.js';

/**
 * Starts the watchdog (watchdog-main.ts) for this run: if Ralph dies — even by
 * kill -9, which no handler sees — the watchdog notices the end of its pipe
 * and ends the agent and the verify command within about `graceMs`.
 */
export interface Watchdog {
  pid: number | undefined;
  /** Tells the watchdog about a command Ralph started. */
  note(record: SpawnRecord): void;
  /** Ralph is done: the watchdog sweeps whatever is left and exits. */
  close(): void;
}

export function startWatchdog(token: string, graceMs = 1000): Watchdog {
  const script = fileURLToPath(new URL('./watchdog-main.js', import.meta.url));
  const child = spawn(process.execPath, [script, token, String(graceMs)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  child.on('error', () => undefined);
  const input = child.stdin;
  input?.on('error', () => undefined);
  // Neither the watchdog nor its pipe may keep Ralph from exiting.
  child.unref();
  (input as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    pid: child.pid,
    note(record) {
      if (input && !input.destroyed) input.write(`${record.pid} ${record.startTime}\n`);
    },
    close() {
      input?.end();
    },
  };
}
