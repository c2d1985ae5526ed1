import { chmodSync, linkSync, statSync, writeFileSync } from 'node:fs';
import { writeFileAtomic } from '../../../state/json-file.js';

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

/**
 * Keeps the current file at a free backup name (`<name>.bak`, then
 * `<name>.bak.1`, …) before it is replaced. A hard link of the entry itself:
 * no byte is read or copied, a symlink is kept as the link it is (never
 * followed), and an existing backup is never overwritten (link fails on it).
 * @returns the backup's path
 */
export function keepBackup(path: string): string {
  for (let n = 0; n < 1000; n += 1) {
    const candidate = n === 0 ? `${path}.bak` : `${path}.bak.${n}`;
    try {
      linkSync(path, candidate);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`no free backup name for ${path} (tried ${path}.bak to ${path}.bak.999)`);
}
