import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * A name for a new temporary file beside `path`, renamed over it once written. The process id
 * says whose it is; random bytes (about a microsecond) keep two writers of one process apart
 * without a counter shared by every loop of the process. The name is never trusted to be free:
 * callers create it exclusively.
 */
export function tempNameBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}
