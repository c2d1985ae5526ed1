import { closeSync, constants, fstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { LoopEvent } from '../../engine/loop-events.js';
import type { Redactor } from '../../core/secret-redactor.js';
import { eventLine } from './event-stream.js';

/** `--events` with no file, or `--events -`: the events go to stdout. */
export const EVENTS_TO_STDOUT = '-';

export interface EventSink {
  write(event: LoopEvent): void;
  /** Closes the file; one the run never wrote to (it stopped before it began) is removed. */
  close(): void;
}

/**
 * `ralph --events [FILE]`: every LoopEvent as one line of JSON, written as it happens (no
 * buffer: a tool reading the file or the pipe sees each event when the loop emits it), its
 * secret values redacted. FILE is a path the user chose, anywhere (resolved from the
 * current directory); Ralph creates it and never writes into something that is already
 * there — a file, or a link the last part of the path names, planted or not — so an
 * existing name is refused (exit 2) rather than overwritten or followed.
 */
export function openEventSink(
  target: string,
  cwd: string,
  stdout: (text: string) => void,
  warn: (message: string) => void,
  redactor: () => Redactor,
): EventSink {
  if (target === EVENTS_TO_STDOUT) return { write: (event) => stdout(eventLine(event, redactor())), close: () => undefined };
  const path = resolve(cwd, target);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw refusal(target, path, error);
  }
  let written = 0;
  let broken = false;
  return {
    write(event) {
      if (broken) return;
      try {
        const line = Buffer.from(eventLine(event, redactor()));
        let offset = 0;
        while (offset < line.length) offset += writeSync(fd, line, offset);
        written += line.length;
      } catch (error) {
        // The loop goes on without its event stream, once told why: its other files still record the run.
        broken = true;
        warn(`--events ${target}: writing failed (${(error as Error).message}); no more events go to it.`);
      }
    },
    close() {
      try {
        if (written === 0 && fstatSync(fd).size === 0) unlinkSync(path);
      } catch {
        // Nothing to tidy that matters: an empty file is left.
      }
      closeSync(fd);
    },
  };
}

function refusal(target: string, path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ELOOP')
    return new UsageError(
      `--events ${target}: ${path} already exists; Ralph writes events only to a new file, never over or through an existing one.`,
      'Remove it, or name a new file (such as --events events-$(date +%s).ndjson), or give --events alone for stdout.',
    );
  if (code === 'ENOENT')
    return new UsageError(`--events ${target}: the folder of ${path} does not exist.`, 'Create the folder first, or name a file in an existing one.');
  if (code === 'EISDIR') return new UsageError(`--events ${target}: ${path} is a folder.`, 'Name a file, such as --events events.ndjson.');
  return new UsageError(
    `--events ${target}: cannot create ${path} (${code ?? (error as Error).message}).`,
    'Name a file Ralph may create, or give --events alone for stdout.',
  );
}
