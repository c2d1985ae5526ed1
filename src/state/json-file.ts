import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendToFile } from './append-files.js';
import { redactText } from './redaction.js';
import { tempNameBeside } from './temp-name.js';

/**
 * Writes a file so that a reader never sees half of it: the content goes to a
 * temporary file in the same directory, which is then renamed over the target.
 * Neither step follows a symbolic link the agent may have planted: the
 * temporary file is created new ('wx' refuses anything already there, a link
 * included) and the rename replaces a link at the target instead of writing
 * where it points. Like every write of Ralph's state, the values of the
 * user's secrets are redacted first.
 */
export function writeFileAtomic(path: string, text: string): void {
  const content = redactText(text);
  const dir = dirname(path);
  const tmp = tempNameBeside(path);
  try {
    writeNewFile(tmp, content);
    renameSync(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      writeNewFile(tmp, content);
      renameSync(tmp, path);
      return;
    }
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Creates `path` new; whatever is already there (a leftover of a crash, a planted link) is removed first, never written through. */
function writeNewFile(path: string, content: string): void {
  try {
    writeFileSync(path, content, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(path, { force: true });
    writeFileSync(path, content, { flag: 'wx' });
  }
}

/** The layout of every JSON file Ralph writes: two-space indent, a final newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, formatJson(value));
}

/** Appends one redacted line to a log; the log stays open for the next line (appendToFile). */
export function appendLine(path: string, text: string): void {
  appendToFile(path, `${redactText(text)}\n`);
}

export { isRecord } from '../core/guards.js';
