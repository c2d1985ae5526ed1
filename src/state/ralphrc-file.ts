import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RALPHRC_MAX_BYTES } from '../config/ralphrc.js';
import { errorMessage, UsageError } from '../errors.js';

/**
 * Reads a project's .ralphrc, undefined when there is none. A file larger
 * than a settings file can be is refused with its size, before it is read:
 * every command reads it, and megabytes of it made each take many seconds.
 */
export function readRalphrcFile(path: string, shown = '.ralphrc'): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read ${shown}: ${errorMessage(error)}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > RALPHRC_MAX_BYTES) {
      throw new UsageError(
        `${shown} is ${(size / (1024 * 1024)).toFixed(1)} MB; a settings file may be at most ${RALPHRC_MAX_BYTES / 1024} KB, so it was not read.`,
        `Keep only KEY=value settings in ${shown} (a long list belongs in a file the command reads), then run again.`,
      );
    }
    // Read through the same descriptor: what was measured is what is read, even if the file grows meanwhile.
    const buffer = Buffer.alloc(RALPHRC_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > RALPHRC_MAX_BYTES) {
        throw new UsageError(
          `${shown} grew past ${RALPHRC_MAX_BYTES / 1024} KB while it was read; it was not used.`,
          `Check what writes to ${shown}, then run again.`,
        );
      }
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${shown}: ${errorMessage(error)}`);
  } finally {
    closeSync(fd);
  }
}
