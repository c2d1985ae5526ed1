import { basename, isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';

/**
 * Turns any text (a file's base name, an issue title) into a directory-safe
 * project name: letters, digits, `.`, `_` and `-` are kept (case too), every
 * other run of characters becomes one `-`. Never empty.
 */
export function slugProjectName(raw: string): string {
  const slug = raw
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return slug === '' ? 'project' : slug;
}

/** The file's base name without its last extension, slugged: `docs/My PRD.v2.md` → `My-PRD.v2`. */
export function deriveProjectName(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return slugProjectName(dot > 0 ? base.slice(0, dot) : base);
}

/**
 * Checks a project argument given on the command line and returns the
 * absolute directory. Spaces and nested paths (`a/b/c`) are fine; `..`
 * segments, control characters and empty names are refused.
 */
export function resolveProjectDir(raw: string, cwd: string): string {
  const value = raw.trim();
  if (value === '') throw new UsageError('the project name is empty', 'Give a name, for example: ralph-setup my-project');
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new UsageError('the project name contains control characters', 'Use letters, digits, spaces, "-", "_" or "/" for nested folders.');
  const segments = value.split(/[\\/]+/);
  if (segments.includes('..'))
    throw new UsageError(
      `the project name "${value}" contains "..", which would leave the current folder`,
      'Give a name below the current folder, or an absolute path.',
    );
  return isAbsolute(value) ? resolve(value) : resolve(cwd, value);
}

/** What a project is called in files and messages: the last folder name. */
export function deriveDisplayName(dir: string): string {
  return basename(dir) || 'project';
}
