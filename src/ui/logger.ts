import chalk from 'chalk';
import { appendLine } from '../state/json-file.js';
import { localTimestamp } from '../core/time-format.js';
import type { Clock, LogLevel, Logger } from '../ports.js';

export interface LoggerOptions {
  clock: Pick<Clock, 'now'>;
  /** ralph.log; undefined when there is no project (setup commands, --status). */
  logFile?: string;
  verbose: boolean;
  /** Where user-facing lines go (stderr; stdout stays for data). */
  write?: (text: string) => void;
  color?: boolean;
  /** Suppress everything on the terminal (json mode, quiet); the log file still gets it. */
  quiet?: boolean;
}

const PAINT: Record<LogLevel, (s: string) => string> = {
  INFO: chalk.blue,
  WARN: chalk.yellow,
  ERROR: chalk.red,
  SUCCESS: chalk.green,
  LOOP: chalk.magenta,
  DEBUG: chalk.gray,
};

/** Log lines to stderr (coloured on a terminal) and to .ralph/logs/ralph.log. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const color = options.color ?? (process.stderr.isTTY === true && !('NO_COLOR' in process.env));
  const emit = (level: LogLevel, message: string): void => {
    if (level === 'DEBUG' && !options.verbose) return;
    const line = `[${localTimestamp(options.clock.now())}] [${level}] ${message}`;
    if (options.logFile) {
      try {
        appendLine(options.logFile, line);
      } catch {
        // A broken log file (or terminal) must never stop the loop.
      }
    }
    if (options.quiet) return;
    try {
      write(`${color ? PAINT[level](line) : line}\n`);
    } catch {
      // stderr closed (broken pty): keep running.
    }
  };
  return {
    info: (m) => emit('INFO', m),
    warn: (m) => emit('WARN', m),
    error: (m) => emit('ERROR', m),
    success: (m) => emit('SUCCESS', m),
    loop: (m) => emit('LOOP', m),
    debug: (m) => emit('DEBUG', m),
    print: (text) => {
      if (options.quiet) return;
      try {
        write(text.endsWith('\n') ? text : `${text}\n`);
      } catch {
        // ignore
      }
    },
  };
}

/** A logger that records lines in memory (tests, and the MCP server which must keep stdout clean). */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (m: string) => {
    lines.push(`[${level}] ${m}`);
  };
  return {
    lines,
    info: push('INFO'),
    warn: push('WARN'),
    error: push('ERROR'),
    success: push('SUCCESS'),
    loop: push('LOOP'),
    debug: push('DEBUG'),
    print: (t) => {
      lines.push(t);
    },
  };
}
