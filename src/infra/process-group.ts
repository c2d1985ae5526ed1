import { spawn, type ChildProcess } from 'node:child_process';

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

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
      const pid = child.pid;
      if (pid === undefined) return;
      signalGroup(pid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline && groupAlive(pid)) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
      await exited;
    })();
    return terminating;
  };
  return { child, exited, terminate };
}
