import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import {
  EXCLUDE_BEGIN,
  EXCLUDE_END,
  PLACEHOLDER_CLAUDE_DIR,
  PLACEHOLDER_CLAUDE_PARTS,
  PLACEHOLDER_FILES,
  isRalphFilePlaceholder,
  placeholderExcludeBlock,
  withoutPlaceholderBlock,
} from '../../core/sandbox-placeholders.js';
import { runGitText } from '../git.js';
import type { ProcessRunner } from '../../ports.js';
import { lstatOrNull } from '../safe-fs.js';

/**
 * The runtime's placeholders (src/core/sandbox-placeholders.ts) in one project: which names a
 * sandboxed run may create, kept out of git (and so out of `git add -A` inside the sandbox,
 * progress detection and checkpoints) through the repository's own exclude file, and the
 * leftovers of a run that was killed before it could remove them.
 */
export interface PlaceholderGuard {
  /** The exclude file Ralph's block is kept in; undefined without a git repository. */
  excludeFile: string | undefined;
  /** Names that were missing when the run started: the only ones a sweep may remove. */
  missing: readonly string[];
}

/**
 * The names a sandboxed run may create in `project` now (what exists is the user's); `ralphFiles`
 * are Ralph's own files the run holds read-only, relative to the project.
 */
export function missingPlaceholderNames(project: string, ralphFiles: readonly string[] = []): string[] {
  const missing = [...PLACEHOLDER_FILES, ...ralphFiles.filter(isRalphFilePlaceholder)].filter((name) => lstatOrNull(join(project, name)) === null);
  const claude = lstatOrNull(join(project, PLACEHOLDER_CLAUDE_DIR));
  if (claude === null) missing.push(PLACEHOLDER_CLAUDE_DIR);
  else if (claude.isDirectory()) missing.push(...PLACEHOLDER_CLAUDE_PARTS.filter((part) => lstatOrNull(join(project, part)) === null));
  return missing;
}

/** Where git reads the repository's exclude patterns, or undefined outside a repository. */
export async function findExcludeFile(project: string, runner: ProcessRunner): Promise<string | undefined> {
  const answer = await runGitText(runner, ['rev-parse', '--git-path', 'info/exclude'], { cwd: project });
  if (answer.exitCode !== 0) return undefined;
  const path = answer.stdout.trim();
  return path === '' ? undefined : path.startsWith('/') ? path : join(project, path);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Whether every folder from `root` down to `path`'s own is a real folder, no link among them. */
function realFoldersBelow(root: string, path: string): boolean {
  const rel = relative(root, dirname(path));
  if (rel === '') return true;
  if (rel.startsWith('..') || isAbsolute(rel)) return true;
  let current = root;
  for (const part of rel.split(sep)) {
    current = join(current, part);
    const stat = lstatOrNull(current);
    if (stat !== null && !stat.isDirectory()) return false;
  }
  return true;
}

/**
 * Writes the exclude file whole through a rename, never through a link: not one standing where
 * the file or its temp file should be, nor one the agent put in place of a folder of the project.
 */
function writeExclude(project: string, path: string, text: string): void {
  if (lstatOrNull(path)?.isSymbolicLink() || !realFoldersBelow(project, path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.ralph-${process.pid}`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
  renameSync(tmp, path);
}

/** The names a block left in the exclude file lists (a run that did not end cleanly). */
export function namesInBlock(text: string): string[] {
  const names: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (line === EXCLUDE_BEGIN) inside = true;
    else if (line === EXCLUDE_END) inside = false;
    else if (inside && line.startsWith('/')) names.push(line.slice(1));
  }
  return names;
}

/**
 * Removes what stands at `name` only when it is one of the runtime's empty stand-ins: an empty
 * regular file or an empty folder, never a link, never anything with content in it.
 */
function removeIfEmpty(project: string, name: string): boolean {
  const path = join(project, name);
  // A nested name (`.claude/agents`) only under a real folder: never through a link to elsewhere.
  if (!realFoldersBelow(project, path)) return false;
  const stat = lstatOrNull(path);
  if (stat === null) return false;
  try {
    if (stat.isFile() && stat.size === 0) {
      unlinkSync(path);
      return true;
    }
    if (stat.isDirectory() && readdirSync(path).length === 0) {
      rmdirSync(path);
      return true;
    }
  } catch {
    // Someone else removed or changed it meanwhile: nothing of ours is left to remove.
  }
  return false;
}

/**
 * Removes the placeholders a killed run left behind, and its exclude block. Only names that
 * block lists (missing when that run started) are considered, deepest first, and each only
 * while it is still empty: anything the user has put there since stays.
 */
export function sweepPlaceholderLeftovers(project: string, excludeFile: string | undefined): string[] {
  if (excludeFile === undefined) return [];
  const text = readText(excludeFile);
  if (!text.includes(EXCLUDE_BEGIN)) return [];
  const removed = namesInBlock(text)
    .filter(
      (name) => PLACEHOLDER_FILES.includes(name) || name === PLACEHOLDER_CLAUDE_DIR || PLACEHOLDER_CLAUDE_PARTS.includes(name) || isRalphFilePlaceholder(name),
    )
    .sort((a, b) => b.length - a.length)
    .filter((name) => removeIfEmpty(project, name));
  writeExclude(project, excludeFile, withoutPlaceholderBlock(text));
  return removed;
}

/** Keeps the names a run may create out of git until `release`. */
export function guardPlaceholders(project: string, excludeFile: string | undefined, ralphFiles: readonly string[] = []): PlaceholderGuard {
  const missing = missingPlaceholderNames(project, ralphFiles);
  if (excludeFile !== undefined && missing.length > 0) {
    const kept = withoutPlaceholderBlock(readText(excludeFile));
    writeExclude(project, excludeFile, `${kept}${kept === '' || kept.endsWith('\n') ? '' : '\n'}${placeholderExcludeBlock(missing)}`);
  }
  return { excludeFile, missing };
}

/** The run is over: its leftovers go, then the exclude block. */
export function releasePlaceholders(project: string, guard: PlaceholderGuard): void {
  for (const name of [...guard.missing].sort((a, b) => b.length - a.length)) removeIfEmpty(project, name);
  if (guard.excludeFile !== undefined) {
    const text = readText(guard.excludeFile);
    if (text.includes(EXCLUDE_BEGIN)) writeExclude(project, guard.excludeFile, withoutPlaceholderBlock(text));
  }
}
