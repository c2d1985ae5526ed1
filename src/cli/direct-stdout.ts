import { fstatSync, writeSync } from 'node:fs';
import { isReaderGone, tolerateClosedOutput } from './closed-pipes.js';

/**
 * Output of the quick answers, written straight to file descriptor 1: creating
 * `process.stdout` loads Node's stream modules, which costs more than the
 * answer itself. A reader that is gone drops the text quietly (as
 * closed-pipes.ts does for the streams); a non-blocking pipe that is full for
 * now gets the rest through `process.stdout`, which waits for the reader.
 */

/** Writes from `offset` on and returns how many bytes went out (writeSync's contract). */
export type WriteFrom = (bytes: Uint8Array, offset: number) => number;

/** Writes all of `bytes`, across partial writes; `later` takes what cannot go out without waiting. */
export function writeAll(bytes: Uint8Array, write: WriteFrom, later: (rest: Uint8Array) => void): void {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += write(bytes, offset);
    } catch (error) {
      if (isReaderGone(error)) return;
      if ((error as { code?: unknown } | null)?.code !== 'EAGAIN') throw error;
      later(bytes.subarray(offset));
      return;
    }
  }
}

/**
 * Whether stdout is a terminal. Only a character device can be one, so a pipe
 * or a file is told apart without loading node:tty (which loads the streams
 * too). A Node without `process.getBuiltinModule` (before 20.16) takes every
 * character device for a terminal: /dev/null then gets the help from the
 * parser, the same text.
 */
export function stdoutIsTerminal(): boolean {
  try {
    if (!fstatSync(1).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  const tty = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:tty') : undefined;
  return tty ? tty.isatty(1) : true;
}

export function writeStdout(text: string): void {
  writeAll(
    Buffer.from(text),
    (bytes, offset) => writeSync(1, bytes, offset),
    (rest) => {
      tolerateClosedOutput();
      process.stdout.write(rest);
    },
  );
}
