import { lstatSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { copyIndexFile, type GitInfo, type GitRunOptions, type GitWorkspace } from './git-workspace.js';

/**
 * The building blocks of checkpoints and rollback (spec §8): capturing the exact
 * state of a work tree as git objects without touching it, and writing a saved
 * state back. Every capture goes through a private index file, so the user's
 * index, work tree and stash are never modified by reading them.
 *
 * Ralph's own state files under `.ralph/` (status, logs, counters, the gate and
 * checkpoint records) are outside every capture and every restore: rolling back
 * the agent's work must not roll back Ralph's memory of it.
 */

export class GitCommandError extends Error {
  override name = 'GitCommandError';
}

export async function gitOk(ws: GitWorkspace, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  const result = await ws.run(args, options);
  if (result.exitCode !== 0) {
    const detail = (result.stderr || result.spawnError || `exit code ${String(result.exitCode)}`).trim();
    throw new GitCommandError(`git ${args.filter((a) => !a.startsWith(':(')).join(' ')} failed: ${detail}`);
  }
  return result.stdout;
}

/** Paths under the project's `.ralph/` that belong to Ralph, not to the user's work. */
export const RALPH_STATE_PATTERNS: readonly string[] = [
  '.ralph/.*',
  '.ralph/logs',
  '.ralph/status.json',
  '.ralph/progress.json',
  '.ralph/live.log',
  '.ralph/*.corrupt',
  '.ralph/*.tmp',
];

/** Pathspec for "the whole repository except Ralph's state" (non-glob magic: `*` also matches `/`). */
export function capturePathspec(prefix: string): string[] {
  return [':(top)', ...RALPH_STATE_PATTERNS.map((p) => `:(top,exclude)${prefix}${p}`)];
}

/** The same rule in JS, for lists git has already produced (paths relative to the top). */
export function isRalphStatePath(path: string, prefix: string): boolean {
  if (!path.startsWith(`${prefix}.ralph/`)) return false;
  const rest = path.slice(prefix.length + '.ralph/'.length);
  return (
    rest.startsWith('.') ||
    rest === 'logs' ||
    rest.startsWith('logs/') ||
    rest === 'status.json' ||
    rest === 'progress.json' ||
    rest === 'live.log' ||
    rest.endsWith('.corrupt') ||
    rest.endsWith('.tmp')
  );
}

let tempCounter = 0;

/** A private index file; `copy` starts it from the real index so git can reuse its stat cache. */
export class TempIndex {
  readonly path: string;

  constructor(info: GitInfo, copy: boolean) {
    tempCounter += 1;
    this.path = join(tmpdir(), `ralph-cp-index-${process.pid}-${tempCounter}-${Date.now()}`);
    const real = join(info.gitDir, 'index');
    if (copy) copyIndexFile(real, this.path);
  }

  get env(): Record<string, string> {
    return { GIT_INDEX_FILE: this.path };
  }

  dispose(): void {
    rmSync(this.path, { force: true });
    rmSync(`${this.path}.lock`, { force: true });
  }
}

export async function withTempIndex<T>(info: GitInfo, copy: boolean, fn: (index: TempIndex) => Promise<T>): Promise<T> {
  const index = new TempIndex(info, copy);
  try {
    return await fn(index);
  } finally {
    index.dispose();
  }
}

export async function readHead(ws: GitWorkspace): Promise<string | null> {
  return (await ws.head()) ?? null;
}

/** `refs/heads/<name>` when HEAD is on a branch (born or unborn), null when detached. */
export async function readBranch(ws: GitWorkspace): Promise<string | null> {
  const result = await ws.run(['symbolic-ref', '-q', 'HEAD']);
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

export interface WorkState {
  head: string | null;
  branch: string | null;
  /** Tree of the index as it is; null when it holds unresolved merge conflicts. */
  indexTree: string | null;
  /** Tracked files with their work-tree content (a stash's W tree). */
  trackedTree: string;
  /** Untracked, non-ignored files only (a stash's U tree); null when there are none. */
  untrackedTree: string | null;
  /** Everything: tracked and untracked, non-ignored files. */
  fullTree: string;
}

function splitZ(text: string): string[] {
  return text.split('\0').filter((p) => p.length > 0);
}

async function writeTree(ws: GitWorkspace, index: TempIndex): Promise<string> {
  return (await gitOk(ws, ['write-tree'], { env: index.env })).trim();
}

/**
 * Records the work tree, index, HEAD and branch as git objects. `extraPaths`
 * (relative to the top) are added even when ignored — rollback uses it to keep
 * files that the agent's own .gitignore edits would otherwise hide.
 */
export async function captureWorkState(ws: GitWorkspace, info: GitInfo, extraPaths: readonly string[] = []): Promise<WorkState> {
  const top = { cwd: info.root };
  const spec = capturePathspec(info.prefix);
  const refs = Promise.all([readHead(ws), readBranch(ws)]);
  const trees = withTempIndex(info, true, async (index) => {
    const env = index.env;
    const indexResult = await ws.run(['write-tree'], { env, ...top });
    const indexTree = indexResult.exitCode === 0 ? indexResult.stdout.trim() : null;
    // -u takes the work-tree content of every tracked file (deleted ones drop out),
    // and resolves conflicted entries to what is on disk.
    await gitOk(ws, ['add', '-u', '--', ...spec], { env, ...top });
    const trackedTree = await writeTree(ws, index);
    const listed = splitZ(await gitOk(ws, ['ls-files', '-o', '--exclude-standard', '-z', '--', ...spec], top));
    // A trailing slash marks a nested repository: it is its own project, left alone.
    const untracked = [...new Set([...listed.filter((p) => !p.endsWith('/')), ...extraPaths])];
    if (untracked.length === 0) return { indexTree, trackedTree, untrackedTree: null, fullTree: trackedTree };
    const input = `${untracked.join('\0')}\0`;
    await gitOk(ws, ['update-index', '--add', '-z', '--stdin'], { env, input, ...top });
    const fullTree = await writeTree(ws, index);
    const untrackedTree = await withTempIndex(info, false, async (only) => {
      await gitOk(ws, ['update-index', '--add', '-z', '--stdin'], { env: only.env, input, ...top });
      return writeTree(ws, only);
    });
    return { indexTree, trackedTree, untrackedTree, fullTree };
  });
  const [[head, branch], captured] = await Promise.all([refs, trees]);
  return { head, branch, ...captured };
}

/** The full tree of a stash-style checkpoint: its tracked tree with its untracked tree laid over it. */
export async function overlayTrees(ws: GitWorkspace, info: GitInfo, tracked: string, untracked: string | null): Promise<string> {
  if (untracked === null) return tracked;
  return withTempIndex(info, false, async (index) => {
    await gitOk(ws, ['read-tree', tracked, untracked], { env: index.env, cwd: info.root });
    return writeTree(ws, index);
  });
}

interface DiffEntry {
  srcMode: string;
  dstMode: string;
  status: string;
  path: string;
}

/** `git diff-tree -r -z --raw`: ":<srcmode> <dstmode> <src> <dst> <status>\0<path>\0". */
function parseRawDiff(text: string): DiffEntry[] {
  const parts = text.split('\0');
  const entries: DiffEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i] as string;
    const path = parts[i + 1] as string;
    if (!meta.startsWith(':')) break;
    const [srcMode = '', dstMode = '', , , status = ''] = meta.slice(1).split(' ');
    entries.push({ srcMode, dstMode, status: status.charAt(0), path });
  }
  return entries;
}

export async function diffTrees(ws: GitWorkspace, info: GitInfo, from: string, to: string): Promise<DiffEntry[]> {
  const out = await gitOk(ws, ['diff-tree', '-r', '-z', '--raw', '--no-renames', from, to], { cwd: info.root });
  return parseRawDiff(out).filter((e) => !isRalphStatePath(e.path, info.prefix));
}

const GITLINK = '160000';

export interface RestoreReport {
  /** Files written back (changed or deleted by the attempt). */
  written: string[];
  /** Files the attempt created, removed. */
  deleted: string[];
  /** Files the attempt created that the restored .gitignore ignores: left in place, untouched. */
  keptIgnored: string[];
  /** Directories in the way of a file to restore, moved aside (they held ignored files). */
  displaced: string[];
}

function removeFile(path: string): void {
  try {
    if (lstatSync(path).isDirectory()) return;
  } catch {
    return;
  }
  rmSync(path, { force: true });
}

/** Removes directories left empty by deletions, deepest first, never the top itself. */
function pruneEmptyDirs(root: string, deleted: readonly string[]): void {
  const dirs = new Set<string>();
  for (const path of deleted) {
    for (let dir = dirname(path); dir !== '.' && dir !== '' && dir !== '/'; dir = dirname(dir)) dirs.add(dir);
  }
  for (const dir of [...dirs].sort((a, b) => b.split('/').length - a.split('/').length)) {
    const full = join(root, dir);
    try {
      if (readdirSync(full).length === 0) rmdirSync(full);
    } catch {
      // Gone already, or not a directory: nothing to prune.
    }
  }
}

async function ignoredByCurrentRules(ws: GitWorkspace, info: GitInfo, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await ws.run(['check-ignore', '--no-index', '-z', '--stdin'], { input: `${paths.join('\0')}\0`, cwd: info.root });
  // 0: some ignored, 1: none ignored, anything else: an error.
  if (result.exitCode !== 0 && result.exitCode !== 1) throw new GitCommandError(`git check-ignore failed: ${result.stderr.trim()}`);
  return new Set(splitZ(result.stdout));
}

/**
 * Makes the work tree hold `to` where it now holds `from` (both full trees of
 * this work tree): changed and deleted files are written back, files that exist
 * only in `from` are removed. Files identical in both are not touched; ignored
 * files never are. `.gitignore` files are restored first so that the decision
 * "created by the attempt, or ignored?" uses the restored rules.
 */
export async function restoreWorkTree(ws: GitWorkspace, info: GitInfo, from: string, to: string, displacedSuffix: string): Promise<RestoreReport> {
  const report: RestoreReport = { written: [], deleted: [], keptIgnored: [], displaced: [] };
  const entries = await diffTrees(ws, info, from, to);
  const writes = entries.filter((e) => e.status !== 'D' && e.dstMode !== GITLINK).map((e) => e.path);
  const deletes = entries.filter((e) => e.status === 'D' && e.srcMode !== GITLINK).map((e) => e.path);
  if (writes.length === 0 && deletes.length === 0) return report;
  const isIgnoreFile = (p: string): boolean => basename(p) === '.gitignore';

  await withTempIndex(info, false, async (index) => {
    const checkout = async (paths: readonly string[]): Promise<void> => {
      if (paths.length === 0) return;
      await gitOk(ws, ['checkout-index', '-f', '-z', '--stdin'], { env: index.env, input: `${paths.join('\0')}\0`, cwd: info.root });
      report.written.push(...paths);
    };
    await gitOk(ws, ['read-tree', to], { env: index.env, cwd: info.root });

    for (const path of deletes.filter(isIgnoreFile)) removeFile(join(info.root, path));
    report.deleted.push(...deletes.filter(isIgnoreFile));
    await checkout(writes.filter(isIgnoreFile));

    const candidates = deletes.filter((p) => !isIgnoreFile(p));
    const ignored = await ignoredByCurrentRules(ws, info, candidates);
    for (const path of candidates) {
      if (ignored.has(path)) report.keptIgnored.push(path);
      else {
        removeFile(join(info.root, path));
        report.deleted.push(path);
      }
    }
    pruneEmptyDirs(info.root, report.deleted);

    const rest = writes.filter((p) => !isIgnoreFile(p));
    for (const path of rest) {
      const full = join(info.root, path);
      try {
        if (lstatSync(full).isDirectory()) {
          // Only ignored files can be left in it; checkout-index -f would delete them.
          const aside = `${full}.${displacedSuffix}`;
          renameSync(full, aside);
          report.displaced.push(aside);
        }
      } catch {
        // Nothing on disk at that path: the common case.
      }
    }
    await checkout(rest);
  });
  return report;
}
