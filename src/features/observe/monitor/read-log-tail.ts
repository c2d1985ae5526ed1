import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile } from '../../../state/regular-file.js';

const CHUNK = 8 * 1024;
/** Never read more than this from the end of the log, however long its lines. */
export const LOG_TAIL_MAX_BYTES = 64 * 1024;

/**
 * The last `count` lines of a text file, read backwards from its end so a
 * 10 MB ralph.log costs one or two small reads. Missing file → []; so is
 * anything but a regular file (a named pipe there never blocks the reader).
 */
export function readLastLines(path: string, count: number, maxBytes = LOG_TAIL_MAX_BYTES): string[] {
  if (count <= 0) return [];
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    let position = size;
    let buffer = Buffer.alloc(0);
    while (position > 0 && buffer.length < maxBytes && countNewlines(buffer) <= count) {
      const length = Math.min(CHUNK, position, maxBytes - buffer.length);
      position -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, position);
      buffer = Buffer.concat([chunk, buffer]);
    }
    const lines = buffer.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    // Unless we reached the start of the file, the first line is only a fragment.
    if (position > 0) lines.shift();
    return lines.slice(-count).map((line) => line.replace(/\r$/, ''));
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

function countNewlines(buffer: Buffer): number {
  let n = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) n += 1;
  return n;
}
