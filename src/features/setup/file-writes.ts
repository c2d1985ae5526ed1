import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { writeFileAtomic } from '../../state/json-file.js';

/**
 * Creates `path` only if nothing exists there yet. The check and the write are
 * one step (O_EXCL), so a file the user created a moment ago is never lost.
 * Returns false when the file already existed.
 */
export function createFileExclusive(path: string, content: string, mode?: number): boolean {
  try {
    writeFileSync(path, content, mode === undefined ? { flag: 'wx' } : { flag: 'wx', mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  // The umask applies to `mode`; a requested mode (600 for .ralphrc) must hold exactly.
  if (mode !== undefined) chmodSync(path, mode);
  return true;
}

/** Replaces a file atomically and keeps its permission bits (a 600 .ralphrc stays 600). */
export function replaceFileKeepingMode(path: string, content: string): void {
  const mode = statSync(path).mode & 0o7777;
  writeFileAtomic(path, content);
  chmodSync(path, mode);
}
