import type { AgentOutput } from '../../core/agent-output.js';
import { OutputScanner } from '../../core/output-scanner.js';
import { start, type ProcessEnd } from '../../infra/process.js';
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

export interface ConversionRun {
  end: ProcessEnd;
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
 * grace period), and so does the end of the call for anything Claude left
 * running. The output is parsed as it arrives and kept in the log.
 */
export async function runConversion(options: ConversionRunOptions): Promise<ConversionRun> {
  const { file, args } = buildConversionArgs(options.command, options.prompt);
  const scanner = new OutputScanner();
  // Bounded and redacted like the loop's output logs; a log that cannot be written never crashes the import.
  const log = new CappedLog(options.logPath, OUTPUT_LOG_CAP, currentRedactors().bytes);
  const outcome = await start(file, args, {
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    killGraceMs: options.killGraceMs ?? 3000,
    tailChars: 8 * 1024,
    drainMs: 2000,
    onStdout: (text, bytes) => {
      log.write(bytes);
      scanner.write(text);
    },
    onStderr: (_text, bytes) => log.write(bytes),
  });
  log.close();
  if (outcome.failure !== undefined) return { end: 'spawn_failed', exitCode: undefined, output: scanner.end(), stderrTail: '', failure: outcome.failure };
  return { end: outcome.end, exitCode: outcome.exitCode, output: scanner.end(), stderrTail: outcome.stderrTail };
}
