import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { redactText } from './redaction.js';

let counter = 0;

/**
 * Writes a file so that a reader never sees half of it: the content goes to a
 * temporary file in the same directory, which is then renamed over the target.
 * Like every write of Ralph's state, the values of the user's secrets are
 * redacted first.
 */
export function writeFileAtomic(path: string, text: string): void {
  const content = redactText(text);
  const dir = dirname(path);
  counter += 1;
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, content);
      renameSync(tmp, path);
      return;
    }
    rmSync(tmp, { force: true });
    throw error;
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

export type JsonRead<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'corrupt'; reason: string };

/**
 * Reads a JSON state file. `normalize` turns untrusted content into the typed
 * value or returns a string saying what is wrong with it.
 */
export function readJsonFile<T>(path: string, normalize: (value: unknown) => T | string): JsonRead<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', reason: text.trim() === '' ? 'the file is empty' : `not valid JSON (${(error as Error).message})` };
  }
  const value = normalize(parsed);
  if (typeof value === 'string') return { kind: 'corrupt', reason: value };
  return { kind: 'ok', value };
}

/**
 * Loads a state file; a corrupt one is moved aside to `<name>.corrupt` (so
 * nothing is lost), reported through `warn`, and replaced by `fallback`.
 */
export function loadStateFile<T>(path: string, normalize: (value: unknown) => T | string, fallback: () => T, warn: (message: string) => void): T {
  const read = readJsonFile(path, normalize);
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

export function appendLine(path: string, text: string): void {
  const line = redactText(text);
  try {
    appendFileSync(path, `${line}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${line}\n`);
  }
}

export { isRecord } from '../core/guards.js';
