import { lstatSync } from 'node:fs';
import type { Redactor } from '../core/secret-redactor.js';
import { formatJson, writeFileAtomic } from './json-file.js';
import { currentRedactors } from './redaction.js';

/**
 * The loop saves its documents several times an iteration, most often with what the file
 * already holds (a circuit that stays closed, an error history that stays empty). An atomic
 * write creates a temporary file and renames it over the old one: two changes to the directory
 * that the file system journals, and the largest part of what an iteration costs Ralph itself.
 * A save whose text is the one this process wrote last is skipped, as long as the file on disk is
 * still the one it wrote (same inode, size and times): a file changed, replaced or removed by
 * anyone since is written again.
 */
interface Written {
  text: string;
  /** Secrets found later change what the same text becomes on disk. */
  redactor: Redactor;
  stamp: string;
}

const written = new Map<string, Written>();
// The documents of a project or two; a process that writes many projects (tests) forgets the oldest.
const REMEMBERED = 64;

function stampOf(path: string): string | undefined {
  const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}

/** Writes `value` as JSON atomically, unless the file already holds exactly that from this process. */
export function writeJsonDocument(path: string, value: unknown): void {
  const text = formatJson(value);
  const redactor = currentRedactors().text;
  const last = written.get(path);
  if (last && last.text === text && last.redactor === redactor && last.stamp === stampOf(path)) return;
  written.delete(path);
  writeFileAtomic(path, text);
  const stamp = stampOf(path);
  if (stamp === undefined) return;
  if (written.size >= REMEMBERED) written.delete(written.keys().next().value as string);
  written.set(path, { text, redactor, stamp });
}
