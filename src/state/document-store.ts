import { renameSync } from 'node:fs';
import { basename } from 'node:path';
import * as v from 'valibot';
import { readRegularFile } from './regular-file.js';
import { describeIssue } from './documents/lenient.js';
import { writeJsonDocument } from './document-writes.js';
import type { RalphPaths } from './paths.js';

/**
 * Reading and writing the JSON documents Ralph keeps between runs, one policy
 * for all of them: a missing file is the document's empty value; a file that
 * does not parse or has the wrong shape is moved aside to `<name>.corrupt` (so
 * nothing is lost), reported, and replaced by the empty value; any other
 * error (EACCES, a directory or a named pipe in its place: OddFileError…) is
 * thrown, because a reset would hide it; nothing is read from a file that is
 * not a regular one (regular-file.ts), so a pipe never blocks. Writes are
 * atomic, never go through a symbolic link (writeFileAtomic), and leave a file that already
 * holds the same text alone (writeJsonDocument).
 */

/** One JSON document: where it lives, what shape it has, and its value when there is none yet. */
export interface DocumentSpec<T, P> {
  path: (paths: P) => string;
  schema: v.GenericSchema<unknown, T>;
  empty: (nowMs: number) => T;
  /** The `version` field the file carries, for the documents that have one. */
  version?: number;
}

/** A document under a project's `.ralph/`. */
export type RalphDocument<T> = DocumentSpec<T, RalphPaths>;

export type JsonRead<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'corrupt'; reason: string };

/**
 * A running loop rewrites its documents in place (in-place-rewrite.ts): a read that meets the
 * very moment of a write sees part of each text, so a text that does not parse is read again
 * before it counts as corrupt.
 */
const READS_BEFORE_CORRUPT = 3;

/** Reads and checks one JSON file without repairing anything (what read-only commands use). */
export function readJsonFile<T>(path: string, schema: v.GenericSchema<unknown, T>): JsonRead<T> {
  let text = '';
  let parsed: unknown;
  for (let read = 1; ; read += 1) {
    try {
      text = readRegularFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
    try {
      parsed = JSON.parse(text);
      break;
    } catch (error) {
      if (read < READS_BEFORE_CORRUPT) continue;
      return { kind: 'corrupt', reason: text.trim() === '' ? 'the file is empty' : `not valid JSON (${(error as Error).message})` };
    }
  }
  const checked = v.safeParse(schema, parsed);
  return checked.success ? { kind: 'ok', value: checked.output } : { kind: 'corrupt', reason: describeIssue(checked.issues) };
}

/** Reads one JSON file; a corrupt one is moved aside, reported through `warn` and replaced by `fallback`. */
export function loadJsonFile<T>(path: string, schema: v.GenericSchema<unknown, T>, fallback: () => T, warn: (message: string) => void): T {
  const read = readJsonFile(path, schema);
  if (read.kind === 'ok') return read.value;
  if (read.kind === 'corrupt') {
    try {
      renameSync(path, `${path}.corrupt`);
    } catch {
      // The file vanished meanwhile; nothing to keep.
    }
    warn(`${basename(path)} was corrupt (${read.reason}); it was reset and the old content kept in ${basename(path)}.corrupt`);
  }
  return fallback();
}

export function readDocument<T, P>(paths: P, doc: DocumentSpec<T, P>): JsonRead<T> {
  return readJsonFile(doc.path(paths), doc.schema);
}

export function loadDocument<T, P>(paths: P, doc: DocumentSpec<T, P>, warn: (message: string) => void, nowMs = Date.now()): T {
  return loadJsonFile(doc.path(paths), doc.schema, () => doc.empty(nowMs), warn);
}

export function saveDocument<T, P>(paths: P, doc: DocumentSpec<T, P>, value: T): void {
  writeJsonDocument(doc.path(paths), value);
}

/** Held while a document is read, changed and written back; released after the write. */
export type DocumentLock = (path: string) => Promise<() => Promise<void>>;

export interface UpdateOptions {
  warn: (message: string) => void;
  nowMs?: number;
  /**
   * Excludes the other writers of the document for the whole read-change-write.
   * The read happens under it, so a change made by another process a moment
   * before is the one this change starts from.
   */
  lock: DocumentLock;
}

/** Read-modify-write of one document under `options.lock`; returns what `change` made of it. */
export async function updateDocument<T, P>(paths: P, doc: DocumentSpec<T, P>, options: UpdateOptions, change: (current: T) => T): Promise<T> {
  const path = doc.path(paths);
  const release = await options.lock(path);
  try {
    const next = change(loadDocument(paths, doc, options.warn, options.nowMs));
    saveDocument(paths, doc, next);
    return next;
  } finally {
    await release();
  }
}
