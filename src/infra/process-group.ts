import { spawn, type ChildProcess } from 'node:child_process';
import { stopGroup } from './process-tree.js';

/**
 * Starts a command as the leader of its own process group, so that a timeout
 * or an interrupt can end it together with everything it started (grandchildren
 * included) — the original only ever killed the parent (U§15.10).
 */
export interface GroupProcess {
  child: ChildProcess;
  /** Resolves when the leader has exited. */
  exited: Promise<{ exitCode: number | undefined; signal: string | undefined }>;
  /** SIGTERM to the whole group, then SIGKILL after `graceMs` if anything is left. */
  terminate(graceMs: number): Promise<void>;
}

export interface GroupSpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function spawnGroup(file: string, args: readonly string[], options: GroupSpawnOptions): GroupProcess {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    // stdin closed: newer CLIs wait on stdin in -p mode (U§14 row 17).
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<{ exitCode: number | undefined; signal: string | undefined }>((resolve) => {
    let settled = false;
    const done = (exitCode: number | null | undefined, signal: NodeJS.Signals | null | undefined): void => {
      if (settled) return;
      settled = true;
      resolve({ exitCode: exitCode ?? undefined, signal: signal ?? undefined });
    };
    child.once('exit', (code, signal) => done(code, signal));
    child.once('error', () => done(undefined, undefined));
  });
  let terminating: Promise<void> | undefined;
  const terminate = (graceMs: number): Promise<void> => {
    terminating ??= (async () => {
      if (child.pid === undefined) return;
      await stopGroup(child.pid, graceMs);
      await exited;
    })();
    return terminating;
  };
  return { child, exited, terminate };
}
