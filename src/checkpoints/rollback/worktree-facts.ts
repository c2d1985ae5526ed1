import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RepoContext } from '../git/git-plumbing.js';

/**
 * What the other worktrees of a repository are doing, read from their git
 * dirs without running git: the branches they have checked out (or are
 * rebasing or bisecting), and the commits their HEADs held since a moment
 * (their current HEAD commit and their HEAD reflog since then). A rollback
 * uses it to leave their work alone (see core/rollback-ref-scope.ts).
 */

export interface OtherWorktrees {
  checkedOut: Set<string>;
  heads: Set<string>;
}

const HEX = /^[0-9a-f]{40,64}$/;

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The commits a worktree's HEAD moved from and to from `sinceSeconds` on (epoch seconds), from its reflog. */
export function headsSince(gitDir: string, sinceSeconds: number): string[] {
  const out: string[] = [];
  for (const line of (readText(join(gitDir, 'logs', 'HEAD')) ?? '').split('\n')) {
    // `<old> <new> <name> <<email>> <seconds> <zone>\t<message>`
    const [meta = ''] = line.split('\t');
    const fields = meta.split(' ');
    const seconds = Number(fields[fields.length - 2]);
    if (!Number.isFinite(seconds) || seconds < sinceSeconds) continue;
    for (const oid of [fields[0] ?? '', fields[1] ?? '']) if (HEX.test(oid) && !/^0+$/.test(oid)) out.push(oid);
  }
  return out;
}

/** The git dirs of every worktree of the repository but `ctx`'s own. */
function otherGitDirs(ctx: RepoContext): string[] {
  const dirs: string[] = [];
  const own = resolve(ctx.gitDir);
  if (resolve(ctx.commonDir) !== own) dirs.push(ctx.commonDir);
  let names: string[] = [];
  try {
    names = readdirSync(join(ctx.commonDir, 'worktrees'));
  } catch {
    // No linked worktrees.
  }
  for (const name of names) {
    const dir = join(ctx.commonDir, 'worktrees', name);
    if (resolve(dir) !== own) dirs.push(dir);
  }
  return dirs;
}

function branchIn(text: string | null): string | null {
  const value = text?.trim() ?? '';
  if (value.startsWith('ref: ')) return value.slice(5);
  return value.startsWith('refs/heads/') ? value : null;
}

/**
 * `refValue` gives a branch's commit now; `sinceSeconds`: reflog entries from
 * then on count (epoch seconds).
 */
export function readOtherWorktrees(ctx: RepoContext, refValue: (name: string) => string | undefined, sinceSeconds: number): OtherWorktrees {
  const checkedOut = new Set<string>();
  const heads = new Set<string>();
  for (const dir of otherGitDirs(ctx)) {
    const head = readText(join(dir, 'HEAD'));
    if (head === null) continue;
    const branch = branchIn(head);
    if (branch) {
      checkedOut.add(branch);
      const commit = refValue(branch);
      if (commit) heads.add(commit);
    } else if (HEX.test(head.trim())) heads.add(head.trim());
    for (const file of ['rebase-merge/head-name', 'rebase-apply/head-name', 'BISECT_START']) {
      const named = branchIn(readText(join(dir, file)));
      if (named) checkedOut.add(named);
    }
    for (const commit of headsSince(dir, sinceSeconds)) heads.add(commit);
  }
  return { checkedOut, heads };
}
