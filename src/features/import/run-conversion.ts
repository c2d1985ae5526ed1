import { StringDecoder } from 'node:string_decoder';
import { BoundedTail } from '../../core/bounded-tail.js';
import type { AgentOutput } from '../../core/agent-output.js';
import { OutputScanner } from '../../core/output-scanner.js';
import { spawnGroup, type GroupProcess } from '../../infra/process-group.js';
import { CappedLog, OUTPUT_LOG_CAP } from '../../state/capped-log.js';
import { currentRedactors } from '../../state/redaction.js';

/** Tools the conversion may use: read the template and the document, write the three files. */
// Edit too: a model that writes a file and then corrects it must not be denied halfway.
export const CONVERSION_TOOLS = ['Read', 'Write', 'Edit', 'Bash(mkdir *)'] as const;

export interface ConversionRunOptions {
  /** CLAUDE_CODE_CMD split into words. */
  command: readonly string[];
  prompt: string;
  cwd: string;
  timeoutMs: number;
  /** Claude's stdout and stderr go here as they arrive. */
  logPath: string;
  env: NodeJS.ProcessEnv;
  /** Aborting (Ctrl+C) ends Claude's whole process tree. */
  signal?: AbortSignal;
  killGraceMs?: number;
}

export type ConversionEnd = 'exited' | 'timeout' | 'interrupted' | 'spawn_failed';

export interface ConversionRun {
  end: ConversionEnd;
  exitCode: number | undefined;
  output: AgentOutput;
  stderrTail: string;
  /** Why Claude could not be started (spawn_failed). */
  failure?: string;
}

export function buildConversionArgs(command: readonly string[], prompt: string): { file: string; args: string[] } {
  const [file, ...rest] = command;
  if (file === undefined) throw new Error('empty Claude command');
  return { file, args: [...rest, '-p', prompt, '--output-format', 'json', '--allowedTools', ...CONVERSION_TOOLS] };
}

/**
 * Runs Claude once, headless, with stdin closed, in its own process group: a
 * timeout or an abort ends the whole tree (SIGTERM, then SIGKILL after the
 * grace period). The output is parsed as it arrives and kept in the log.
 */
export async function runConversion(options: ConversionRunOptions): Promise<ConversionRun> {
  const { file, args } = buildConversionArgs(options.command, options.prompt);
  const scanner = new OutputScanner();
  const stderr = new BoundedTail(8 * 1024);
  // Bounded and redacted like the loop's output logs; a log that cannot be written never crashes the import.
  const log = new CappedLog(options.logPath, OUTPUT_LOG_CAP, currentRedactors().bytes);
  const closeLog = async (): Promise<void> => log.close();
  const decoder = new StringDecoder('utf8');
  const errDecoder = new StringDecoder('utf8');

  let proc: GroupProcess;
  try {
    proc = spawnGroup(file, args, { cwd: options.cwd, env: options.env });
  } catch (error) {
    await closeLog();
    return { end: 'spawn_failed', exitCode: undefined, output: scanner.end(), stderrTail: '', failure: (error as Error).message };
  }
  let failure: string | undefined;
  proc.child.once('error', (error: NodeJS.ErrnoException) => {
    failure = error.code === 'ENOENT' ? `command not found: ${file}` : error.message;
  });
  proc.child.stdout?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    scanner.write(decoder.write(chunk));
  });
  proc.child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    stderr.write(errDecoder.write(chunk));
  });

  let end: ConversionEnd = 'exited';
  const grace = options.killGraceMs ?? 3000;
  const timer = setTimeout(() => {
    end = 'timeout';
    void proc.terminate(grace);
  }, options.timeoutMs);
  const onAbort = (): void => {
    if (end === 'exited') end = 'interrupted';
    void proc.terminate(grace);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const { exitCode } = await proc.exited;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  await Promise.all([waitSettled(proc.child.stdout), waitSettled(proc.child.stderr)]);
  scanner.write(decoder.end());
  stderr.write(errDecoder.end());
  await closeLog();
  if (failure !== undefined) return { end: 'spawn_failed', exitCode: undefined, output: scanner.end(), stderrTail: '', failure };
  return { end, exitCode, output: scanner.end(), stderrTail: stderr.value() };
}

/** Waits for a pipe to deliver its last data, but not for a grandchild that keeps it open. */
async function waitSettled(stream: NodeJS.ReadableStream | null | undefined): Promise<void> {
  if (!stream) return;
  const readable = stream as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean; destroy?: () => void };
  if (readable.readableEnded || readable.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      readable.destroy?.();
      resolve();
    }, 2000);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    readable.once('end', done);
    readable.once('close', done);
  });
}
