import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { ProcessEntry } from '../core/process-selection.js';
import type { Refusal } from '../core/sandbox-refusals.js';
import { noteCommandEnded } from './command-count.js';
import { spawnGroup, type GroupProcess } from './process-group.js';
import { describeSpawnFailure, drainPipes, feedInput, readOutput, timerDelay, type OutputListener } from './process-pipes.js';

/**
 * The one way Ralph starts a process. Every command runs as the leader of a
 * process group of its own, so a time limit or an interrupt ends it together
 * with what it started, and a failure to start is data, never an exception.
 *
 * - `start` is for commands that run long and may leave processes behind (the
 *   agent, the verify command, a conversion, a test run): its output is
 *   streamed to callbacks, and when it ends everything it left running is
 *   stopped, found by the marker in its environment and its process tree.
 * - `run` is for short helpers (git, tmux, a version check): output buffered
 *   whole, and no look for leftovers, which would cost more than the call.
 */

export type ProcessEnd = 'exited' | 'timeout' | 'interrupted' | 'spawn_failed';

export interface StartOptions {
  cwd: string;
  /** The complete environment; nothing else is inherited. */
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed from the start. */
  input?: string | Buffer;
  onStdout?: OutputListener;
  onStderr?: OutputListener;
  /** Called once the command runs, with its PID (which is also its process group's id). */
  onSpawn?: (pid: number) => void;
  /** Past this the command and everything it started are stopped (end 'timeout'). */
  timeoutMs?: number;
  /** Aborting stops the command and everything it started (end 'interrupted'). */
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL when the command must stop (default 3000 ms). */
  killGraceMs?: number;
  /** Characters kept from the end of stdout and of stderr (default 16 KiB). */
  tailChars?: number;
  /** How long the pipes may stay open once the command is gone (default 1000 ms). */
  drainMs?: number;
  /** What the command is, for the run file ("agent", "verify"). */
  role?: string;
  /** Runs the command inside this container (the sandbox of --sandbox) instead of as it is. */
  contain?: CommandContainer;
  /**
   * Gives the command a fourth pipe (file descriptor 3) and returns the first bytes written to
   * it as `report`: how a contained command's wrapper tells its command's own exit status
   * without a file in a folder the command could write.
   */
  reportPipe?: boolean;
}

/** The command line that runs a command contained, and how its end is read. */
export interface ContainedCommand {
  file: string;
  args: string[];
  /** The wrapper reports on file descriptor 3 (start it with `reportPipe`). */
  reportPipe?: boolean;
  /** The outcome of the contained command, from that of its wrapper (whose exit code is not the command's). */
  settle(outcome: ProcessOutcome): ProcessOutcome;
}

/** Something that runs commands contained: wraps a command line, then reads how it ended. */
export interface CommandContainer {
  /** `tmpDir`: the temporary directory the command was given (its TMPDIR), kept when the container allows it. */
  contain(file: string, args: readonly string[], role: string, tmpDir?: string): Promise<ContainedCommand>;
}

export interface ProcessOutcome {
  end: ProcessEnd;
  /** undefined when a signal ended the command or it never ran. */
  exitCode: number | undefined;
  /** The signal that ended the command, if one did. */
  signal: string | undefined;
  /** From the start until the command itself exited. */
  durationMs: number;
  stdoutTail: string;
  stderrTail: string;
  /** Why the command could not be started (end 'spawn_failed'). */
  failure?: string;
  /** Processes besides the command that outlived it (or its time limit) and were stopped. */
  stopped: ProcessEntry[];
  /** What a contained command was refused while it ran. */
  refusals?: Refusal[];
  /** The first bytes the command wrote to its report pipe (`reportPipe`), at most REPORT_BYTES. */
  report?: string;
}

/** A report is a status, a few characters: anything past this is not read. */
export const REPORT_BYTES = 16;

const DEFAULT_KILL_GRACE_MS = 3000;
const DEFAULT_TAIL_CHARS = 16 * 1024;
const DEFAULT_DRAIN_MS = 1000;

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}

export async function start(file: string, args: readonly string[], options: StartOptions): Promise<ProcessOutcome> {
  try {
    return await startWhole(file, args, options);
  } finally {
    // What it ran may have changed the repository: Ralph's next git call looks again.
    noteCommandEnded();
  }
}

async function startWhole(file: string, args: readonly string[], options: StartOptions): Promise<ProcessOutcome> {
  if (options.contain === undefined) return startAsIs(file, args, options);
  const { contain, ...rest } = options;
  let contained: ContainedCommand;
  try {
    contained = await contain.contain(file, args, options.role ?? file, options.env?.['TMPDIR']);
  } catch (error) {
    const failure = `it could not be wrapped for the sandbox: ${error instanceof Error ? error.message : String(error)}`;
    return { end: 'spawn_failed', exitCode: undefined, signal: undefined, durationMs: 0, stdoutTail: '', stderrTail: '', stopped: [], failure };
  }
  return contained.settle(await startAsIs(contained.file, contained.args, { ...rest, ...(contained.reportPipe === true ? { reportPipe: true } : {}) }));
}

async function startAsIs(file: string, args: readonly string[], options: StartOptions): Promise<ProcessOutcome> {
  const started = performance.now();
  const nothing = { exitCode: undefined, signal: undefined, stdoutTail: '', stderrTail: '', stopped: [] };
  if (options.signal?.aborted) return { ...nothing, end: 'interrupted', durationMs: 0 };
  let group: GroupProcess;
  try {
    group = spawnGroup(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdin: options.input === undefined ? 'ignore' : 'pipe',
      ...(options.role ? { role: options.role } : {}),
      ...(options.reportPipe === true ? { reportPipe: true } : {}),
    });
  } catch (error) {
    return { ...nothing, end: 'spawn_failed', durationMs: elapsed(started), failure: describeSpawnFailure(error, file) };
  }
  const { child } = group;
  let failure: string | undefined;
  child.once('error', (error) => {
    failure ??= describeSpawnFailure(error, file);
  });
  child.once('spawn', () => {
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
  });
  const tailChars = options.tailChars ?? DEFAULT_TAIL_CHARS;
  const stdout = readOutput(child.stdout, tailChars, options.onStdout);
  const stderr = readOutput(child.stderr, tailChars, options.onStderr);
  if (options.input !== undefined) feedInput(child.stdin, options.input);
  const reportStream = options.reportPipe === true ? ((child.stdio[3] as Readable | null | undefined) ?? null) : null;
  const report = readReport(reportStream);

  let end: ProcessEnd = 'exited';
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const stop = (why: ProcessEnd): void => {
    if (end === 'exited') end = why;
    void group.terminate(grace);
  };
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), timerDelay(options.timeoutMs));
  const onAbort = (): void => stop('interrupted');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await group.exited;
  const durationMs = elapsed(started);
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Whatever the command left running (a dev server, a watcher, a process in
  // a session of its own) ends with it.
  const stopped = (await group.terminate(grace)).filter((p) => p.pid !== child.pid);
  await drainPipes([child.stdout, child.stderr, reportStream], options.drainMs ?? DEFAULT_DRAIN_MS);
  stdout.flush();
  stderr.flush();
  const tails = { stdoutTail: stdout.tail.value(), stderrTail: stderr.tail.value() };
  if (failure !== undefined) return { ...nothing, ...tails, end: 'spawn_failed', durationMs, failure, stopped };
  const reported = report();
  return { end, exitCode: exit.exitCode, signal: exit.signal, durationMs, ...tails, stopped, ...(reported !== undefined ? { report: reported } : {}) };
}

/** Collects the first REPORT_BYTES bytes of a report pipe; undefined without one or when nothing came. */
function readReport(stream: Readable | null): () => string | undefined {
  if (stream === null) return () => undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (bytes: Buffer) => {
    if (size >= REPORT_BYTES) return;
    const kept = bytes.subarray(0, REPORT_BYTES - size);
    chunks.push(kept);
    size += kept.length;
  });
  stream.on('error', () => undefined);
  return () => (size === 0 ? undefined : Buffer.concat(chunks).toString('latin1'));
}

export interface RunOptions {
  cwd: string;
  /** The complete environment; the parent's when not given. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed from the start. */
  input?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL when the command must stop (default 3000 ms). */
  killGraceMs?: number;
}

export interface RunOutcome {
  end: ProcessEnd;
  exitCode: number | undefined;
  signal: string | undefined;
  stdout: Buffer;
  stderr: Buffer;
  durationMs: number;
  failure?: string;
}

function signalGroup(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, name);
  } catch {
    // The group is gone already.
  }
}

/** Runs a short helper to its end and returns its whole output. Never throws. */
export async function run(file: string, args: readonly string[], options: RunOptions): Promise<RunOutcome> {
  const started = performance.now();
  const empty = Buffer.alloc(0);
  const nothing = { exitCode: undefined, signal: undefined, stdout: empty, stderr: empty };
  if (options.signal?.aborted) return { ...nothing, end: 'interrupted', durationMs: 0 };
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (error) {
    return { ...nothing, end: 'spawn_failed', durationMs: elapsed(started), failure: describeSpawnFailure(error, file) };
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  if (options.input !== undefined) feedInput(child.stdin, options.input);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; failure?: string }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, failure: describeSpawnFailure(error, file) }));
  });

  let end: ProcessEnd = 'exited';
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (why: ProcessEnd): void => {
    if (end !== 'exited') return;
    end = why;
    signalGroup(child.pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  };
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), timerDelay(options.timeoutMs));
  const onAbort = (): void => stop('interrupted');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await exited;
  const durationMs = elapsed(started);
  clearTimeout(timer);
  clearTimeout(killTimer);
  options.signal?.removeEventListener('abort', onAbort);
  await drainPipes([child.stdout, child.stderr], DEFAULT_DRAIN_MS);
  const output = { stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
  if (exit.failure !== undefined) return { ...nothing, ...output, end: 'spawn_failed', durationMs, failure: exit.failure };
  return { end, exitCode: exit.code ?? undefined, signal: exit.signal ?? undefined, ...output, durationMs };
}

export interface ConversationOptions {
  cwd: string;
  /** The complete environment. */
  env: NodeJS.ProcessEnv;
  /** Each chunk of stdout as it comes (stderr is kept for the outcome). */
  onStdout: (bytes: Buffer) => void;
}

/** A helper that answers requests on stdin for as long as stdin stays open (git's `--batch` and `--stdin` commands). */
export interface Conversation {
  /** Sends bytes to the helper; after it exited they go nowhere, and `ended` says why. */
  write(bytes: Buffer | string): void;
  /** Resolves once the helper exited (also when it could not start), with its stderr. */
  readonly ended: Promise<RunOutcome>;
  /** Closes stdin and waits for the helper to exit: every conversation ends with this, also after an error. */
  finish(): Promise<RunOutcome>;
}

/**
 * Starts a short helper that is asked many things over one stdin, so that a
 * batch of small requests costs one process instead of one each. It never
 * outlives Ralph: its stdin is a pipe from this process, which the system
 * closes when this process ends, and a batch command ends at the end of its input.
 */
export function converse(file: string, args: readonly string[], options: ConversationOptions): Conversation {
  const started = performance.now();
  const empty = Buffer.alloc(0);
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    const ended = Promise.resolve<RunOutcome>({
      end: 'spawn_failed',
      exitCode: undefined,
      signal: undefined,
      stdout: empty,
      stderr: empty,
      durationMs: 0,
      failure: describeSpawnFailure(error, file),
    });
    return { write: () => undefined, ended, finish: () => ended };
  }
  const err: Buffer[] = [];
  let open = true;
  child.stdin?.on('error', () => undefined);
  child.stdout?.on('data', (bytes: Buffer) => options.onStdout(bytes));
  child.stderr?.on('data', (bytes: Buffer) => err.push(bytes));
  const ended = new Promise<RunOutcome>((resolve) => {
    let failure: string | undefined;
    child.once('error', (error) => {
      failure ??= describeSpawnFailure(error, file);
      // A helper that never started emits no exit.
      if (child.pid === undefined)
        resolve({ end: 'spawn_failed', exitCode: undefined, signal: undefined, stdout: empty, stderr: empty, durationMs: 0, failure });
    });
    child.once('exit', (code, signal) => {
      open = false;
      void drainPipes([child.stdout, child.stderr], DEFAULT_DRAIN_MS).then(() =>
        resolve({
          end: failure === undefined ? 'exited' : 'spawn_failed',
          exitCode: code ?? undefined,
          signal: signal ?? undefined,
          stdout: empty,
          stderr: Buffer.concat(err),
          durationMs: elapsed(started),
          ...(failure !== undefined ? { failure } : {}),
        }),
      );
    });
  });
  return {
    write(bytes) {
      if (open) child.stdin?.write(bytes);
    },
    ended,
    finish() {
      open = false;
      child.stdin?.end();
      return ended;
    },
  };
}
