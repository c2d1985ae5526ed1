import { lstatSync } from 'node:fs';
import type { Redactor } from '../core/secret-redactor.js';
import { fileStamp, rewriteInPlace } from './in-place-rewrite.js';
import { formatJson, writeFileAtomic } from './json-file.js';
import { currentRedactors, redactText } from './redaction.js';

/**
 * The loop saves its documents several times an iteration, most often with what the file
 * already holds (a circuit that stays closed, an error history that stays empty). An atomic
 * write creates a temporary file and renames it over the old one: two changes to the directory
 * that the file system journals, and the largest part of what an iteration costs Ralph itself.
 * A save whose text is the one this process wrote last is skipped, as long as the file on disk is
 * still the one it wrote (same inode, size and times); a new text goes into that same file, in
 * place (in-place-rewrite.ts). A file changed, replaced or removed by anyone since is replaced
 * atomically.
 */
interface Written {
  text: string;
  /** Secrets found later change what the same text becomes on disk. */
  redactor: Redactor;
  stamp: string;
}

// Cache: the text (and redactor) this process last wrote per document path; used only while the file is
// still the one it wrote (inode, size, times), so loops may share it; the oldest forgotten past REMEMBERED.
const written = new Map<string, Written>();
// The documents of a project or two; a process that writes many projects (tests) forgets the oldest.
const REMEMBERED = 64;

function stampOf(path: string): string | undefined {
  const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? fileStamp(st) : undefined;
}

function remember(path: string, entry: Written): void {
  if (written.size >= REMEMBERED) written.delete(written.keys().next().value as string);
  written.set(path, entry);
}

/**
 * Writes `value` as JSON: nothing when the file already holds exactly that from this process,
 * in place when the file is still the one this process wrote, atomically otherwise.
 */
export function writeJsonDocument(path: string, value: unknown): void {
  const text = formatJson(value);
  const redactor = currentRedactors().text;
  const last = written.get(path);
  written.delete(path);
  if (last && last.stamp === stampOf(path)) {
    if (last.text === text && last.redactor === redactor) return remember(path, last);
    const stamp = rewriteInPlace(path, redactText(text), last.stamp);
    if (stamp !== undefined) return remember(path, { text, redactor, stamp });
  }
  writeFileAtomic(path, text);
  const stamp = stampOf(path);
  if (stamp !== undefined) remember(path, { text, redactor, stamp });
}
