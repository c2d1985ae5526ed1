import type { VerifyOutcome } from '../core/verify-feedback.js';
import { statSync } from 'node:fs';
import { BoundedTail } from '../core/bounded-tail.js';
import { StreamRedactor, type Redactor } from '../core/secret-redactor.js';
import { formatSecondsShort } from '../core/verify-feedback.js';
import { explainExit } from './exit-explanation.js';
import { start, type CommandContainer } from './process.js';
import { describeProcesses } from '../core/process-selection.js';

export { explainExit, firstWord, signalName } from './exit-explanation.js';

/**
 * Runs the verify gate's shell command:
 * `sh -c <command>` as the leader of its own process group with stdin closed,
 * so a timeout ends it together with everything it started; output is kept as
 * a bounded tail whatever its size. Never throws for an expected failure: a
 * missing directory, an empty command or a spawn error become a failed result
 * with an explanation.
 */
export interface VerifyOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** The complete environment (see buildVerifyEnv); nothing else is inherited. */
  env: Record<string, string>;
  /** The secrets the command's output must not show (the run's redactor, taken when the command starts). */
  redactor: Redactor;
  /** Characters kept from the end of stdout and of stderr (default 5000). */
  maxOutputChars?: number;
  /** Aborting ends the command's process group at once (Ctrl+C, `ralph --stop`). */
  signal?: AbortSignal;
  /** Grace between SIGTERM and SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  /** Called once the shell has started, with its PID (= process group id). */
  onStart?: (pid: number) => void;
  /** Runs the command inside this container (the run's sandbox). */
  contain?: CommandContainer;
}

/** A verify run: the outcome the gate and the feedback read, plus how the run ended. */
export interface VerifyResult extends VerifyOutcome {
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Ended early by the caller's AbortSignal. */
  cancelled?: boolean;
  /** The directory the command ran in. */
  cwd?: string;
  /** Processes the command left running (or that outlived a timeout) and that were stopped: "pid (name)". */
  stoppedProcesses?: string[];
}

export const DEFAULT_MAX_OUTPUT_CHARS = 5000;
const DEFAULT_KILL_GRACE_MS = 1000;
/**
 * After the shell and everything it started are gone, how long its pipes may
 * stay open (a process that cleared the marker from its environment and left
 * the tree) before Ralph stops reading them.
 */
const DRAIN_MS = 250;

export function truncationNotice(maxChars: number): string {
  return `[...truncated, showing last ${maxChars} chars...]\n`;
}

/** Drops a lone low surrogate left at the start by cutting a string in the middle of a pair. */
function cleanCut(text: string): string {
  const code = text.charCodeAt(0);
  return code >= 0xdc00 && code <= 0xdfff ? text.slice(1) : text;
}

function finishTail(tail: BoundedTail, max: number): { text: string; truncated: boolean } {
  if (!tail.truncated) return { text: tail.value(), truncated: false };
  return { text: truncationNotice(max) + cleanCut(tail.value()), truncated: true };
}

function failedBeforeStart(options: VerifyOptions, explanation: string, cwd: string): VerifyResult {
  return {
    command: options.command,
    passed: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    explanation,
    timeoutMs: options.timeoutMs,
    cwd,
  };
}

function checkDirectory(cwd: string): string | undefined {
  try {
    if (!statSync(cwd).isDirectory()) return `the verify directory is not a directory: ${cwd}`;
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `the verify directory does not exist: ${cwd} (check --verify-cwd / workingDir)`;
    return `the verify directory cannot be used: ${cwd} (${code ?? String(error)})`;
  }
}

export async function runVerifyCommand(options: VerifyOptions): Promise<VerifyResult> {
  const { command, cwd } = options;
  const max = Math.max(1, Math.floor(options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS));
  if (command.trim() === '') return failedBeforeStart(options, 'the verify command is empty', cwd);
  const badDir = checkDirectory(cwd);
  if (badDir) return failedBeforeStart(options, badDir, cwd);
  if (options.signal?.aborted) return { ...failedBeforeStart(options, 'cancelled before it started', cwd), cancelled: true };

  const stdoutTail = new BoundedTail(max);
  const stderrTail = new BoundedTail(max);
  // Secrets the command prints are redacted before the tail keeps them, so a cut never leaves half a secret.
  const outRedactor = new StreamRedactor(options.redactor);
  const errRedactor = new StreamRedactor(options.redactor);
  const outcome = await start('sh', ['-c', command], {
    cwd,
    env: options.env,
    role: 'verify',
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    drainMs: DRAIN_MS,
    ...(options.onStart ? { onSpawn: options.onStart } : {}),
    ...(options.contain ? { contain: options.contain } : {}),
    onStdout: (text) => stdoutTail.write(outRedactor.write(text)),
    onStderr: (text) => stderrTail.write(errRedactor.write(text)),
  });
  const timedOut = outcome.end === 'timeout';
  const cancelled = outcome.end === 'interrupted';
  const spawnError = outcome.failure;
  stdoutTail.write(outRedactor.end());
  stderrTail.write(errRedactor.end());
  const stdout = finishTail(stdoutTail, max);
  const stderr = finishTail(stderrTail, max);
  const exitCode = timedOut || cancelled ? null : (outcome.exitCode ?? null);
  const signal = outcome.signal ?? null;
  const result: VerifyResult = {
    command,
    passed: !timedOut && !cancelled && spawnError === undefined && exitCode === 0,
    exitCode,
    signal,
    timedOut,
    durationMs: outcome.durationMs,
    stdout: stdout.text,
    stderr: stderr.text,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timeoutMs: options.timeoutMs,
    cwd,
  };
  let explanation: string | undefined;
  if (timedOut) explanation = `timed out after ${formatSecondsShort(options.timeoutMs)}; the command and every process it started were stopped`;
  else if (cancelled) explanation = 'cancelled; the command and every process it started were stopped';
  else if (spawnError !== undefined) explanation = `could not start sh: ${spawnError}`;
  else explanation = explainExit(command, exitCode, signal, stderr.text);
  if (explanation !== undefined) result.explanation = explanation;
  if (cancelled) result.cancelled = true;
  if (outcome.stopped.length > 0) result.stoppedProcesses = outcome.stopped.map((p) => describeProcesses([p]));
  return result;
}
