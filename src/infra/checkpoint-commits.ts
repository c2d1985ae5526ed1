import type { Checkpoint } from './checkpoint-records.js';
import { gitOk } from './git-snapshot.js';
import type { GitWorkspace } from './git-workspace.js';

/**
 * The git objects behind checkpoints: Ralph's commits (fixed identity, never
 * signed), our entries in the stash (found by commit id, never by position), and
 * reading a checkpoint back from its self-describing commit.
 */

export type Failure = { ok: false; reason: string; attemptRef?: string };
export type Warn = (message: string) => void;

export const NOT_A_REPOSITORY = 'not a git repository';
export const NOT_REPO: Failure = { ok: false, reason: NOT_A_REPOSITORY };
export const STASH_PREFIX = 'ralph checkpoint:';
export const ATTEMPT_REF_PREFIX = 'refs/ralph/attempts/';
export const noWarn: Warn = () => undefined;

export function identityEnv(now: number): Record<string, string> {
  const date = `@${Math.floor(now / 1000)} +0000`;
  // A fixed identity: checkpoint commits are Ralph's, and a repo without user.name must still work.
  return {
    GIT_AUTHOR_NAME: 'Ralph',
    GIT_AUTHOR_EMAIL: 'ralph@localhost',
    GIT_COMMITTER_NAME: 'Ralph',
    GIT_COMMITTER_EMAIL: 'ralph@localhost',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

export async function commitTree(ws: GitWorkspace, tree: string, parents: readonly string[], message: string, env: Record<string, string>): Promise<string> {
  const args = ['commit-tree', '--no-gpg-sign', tree, ...parents.flatMap((p) => ['-p', p])];
  return (await gitOk(ws, args, { env, input: message })).trim();
}

export async function revParse(ws: GitWorkspace, rev: string): Promise<string | null> {
  const result = await ws.run(['rev-parse', '-q', '--verify', `${rev}^{commit}`]);
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

export function shortName(branch: string | null): string {
  return branch ? branch.replace(/^refs\/heads\//, '') : '(no branch)';
}

export interface StashEntry {
  position: number;
  commit: string;
  message: string;
}

export async function stashEntries(ws: GitWorkspace): Promise<StashEntry[]> {
  const out = await gitOk(ws, ['stash', 'list', '--format=%H%x09%gs']);
  return out
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line, position) => {
      const tab = line.indexOf('\t');
      return { position, commit: line.slice(0, tab), message: line.slice(tab + 1) };
    });
}

export function isOurs(entry: StashEntry): boolean {
  return entry.message.startsWith(STASH_PREFIX);
}

function trailers(message: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of message.matchAll(/^(Ralph-[A-Za-z-]+): (.*)$/gm)) map.set(match[1] as string, (match[2] as string).trim());
  return map;
}

/** Reads a checkpoint back from its commit (trailers + structure); a string says why it is not one of ours. */
export async function checkpointFromCommit(ws: GitWorkspace, commit: string, message?: string): Promise<Checkpoint | string> {
  const raw = await ws.run(['cat-file', 'commit', commit]);
  if (raw.exitCode !== 0) return `commit ${commit.slice(0, 12)} no longer exists`;
  const [headers = '', ...body] = raw.stdout.split('\n\n');
  const text = body.join('\n\n');
  const tree = /^tree ([0-9a-f]+)$/m.exec(headers)?.[1];
  const parents = Array.from(headers.matchAll(/^parent ([0-9a-f]+)$/gm), (m) => m[1] as string);
  const t = trailers(text);
  const id = t.get('Ralph-Checkpoint');
  if (!tree || !id || parents.length < 2 || !text.startsWith(STASH_PREFIX)) return `commit ${commit.slice(0, 12)} is not a Ralph checkpoint`;
  const trees = await gitOk(ws, ['rev-parse', `${parents[1]}^{tree}`, ...(parents[2] ? [`${parents[2]}^{tree}`] : [])]);
  const [indexTree = '', untrackedTree] = trees.trim().split('\n');
  const headTrailer = t.get('Ralph-Head');
  const branchTrailer = t.get('Ralph-Branch');
  return {
    id,
    loop: Number(t.get('Ralph-Loop') ?? 0) || 0,
    message: message ?? (text.split('\n')[0] as string),
    createdAt: t.get('Ralph-Created-At') ?? new Date(0).toISOString(),
    head: headTrailer === 'unborn' ? null : (parents[0] as string),
    branch: branchTrailer && branchTrailer !== 'detached' ? branchTrailer : null,
    indexTree,
    worktreeTree: t.get('Ralph-Worktree-Tree') ?? tree,
    trackedTree: tree,
    untrackedTree: untrackedTree ?? null,
    commit,
  };
}

export async function dropStashEntry(ws: GitWorkspace, commit: string): Promise<boolean> {
  const entries = await stashEntries(ws);
  const entry = entries.find((e) => e.commit === commit && isOurs(e));
  if (!entry) return false;
  // Resolved by commit id just now; git stash drop takes a position.
  const out = await gitOk(ws, ['stash', 'drop', `stash@{${entry.position}}`]);
  const dropped = /\(([0-9a-f]+)\)/.exec(out)?.[1];
  if (dropped && dropped !== commit) {
    // The stash moved between listing and dropping: put the other entry back, lose nothing.
    const other = entries.find((e) => e.commit === dropped);
    await gitOk(ws, ['stash', 'store', '-m', other?.message ?? 'restored by ralph', dropped]);
    throw new Error('the stash changed while Ralph was dropping its checkpoint; nothing was lost, try again');
  }
  return true;
}
