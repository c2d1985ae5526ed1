import { errorMessage } from '../errors.js';
import { ralphPaths } from '../state/paths.js';
import {
  ATTEMPT_REF_PREFIX,
  NOT_REPO,
  STASH_PREFIX,
  checkpointFromCommit,
  commitTree,
  dropStashEntry,
  identityEnv,
  isOurs,
  noWarn,
  shortName,
  stashEntries,
  type Failure,
  type Warn,
} from './checkpoint-commits.js';
import { readCheckpointRecords, writeCheckpointRecords, type Checkpoint } from './checkpoint-records.js';
import { rollbackToCheckpoint } from './git-rollback.js';
import { captureWorkState, gitOk } from './git-snapshot.js';
import type { GitWorkspace } from './git-workspace.js';

/**
 * Checkpoints and lossless rollback (spec §8; style-anchors §10.5 example 8).
 *
 * A checkpoint is a stash-style commit (W with parents base, I, and U when there
 * are untracked files) stored with `git stash store`, so `git stash list` shows
 * `ralph checkpoint: loop N` and `git stash show -p --include-untracked` works.
 * Making one reads the work tree through a private index: the work tree, the
 * index and the user's stash entries stay as they are. Our entries are found by
 * their commit id, never by position.
 *
 * Rollback first saves the present (work tree incl. untracked files, index,
 * HEAD) as a commit under refs/ralph/attempts/<id>, then restores: contents,
 * deleted files, files the attempt created removed, the index, and HEAD/branch.
 * Ignored files and Ralph's own state files are never touched. Before anything
 * is destroyed the checkpoint is checked to be ours and intact; afterwards the
 * result is checked against it.
 */
export type { Checkpoint } from './checkpoint-records.js';
export { ATTEMPT_REF_PREFIX, NOT_A_REPOSITORY, STASH_PREFIX, checkpointFromCommit, type Failure, type Warn } from './checkpoint-commits.js';
export { rollbackToCheckpoint, type RollbackOptions, type RollbackResult } from './git-rollback.js';

function recordsPath(ws: GitWorkspace): string {
  return ralphPaths(ws.projectDir).checkpoints;
}

// ------------------------------------------------------------------ create

export interface CreateCheckpointOptions {
  loop: number;
  /** Epoch ms; dates the commits and names the checkpoint. */
  now: number;
  /** Text after `ralph checkpoint:` (default `loop N`). */
  label?: string;
  warn?: Warn;
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function createCheckpoint(ws: GitWorkspace, options: CreateCheckpointOptions): Promise<{ ok: true; checkpoint: Checkpoint } | Failure> {
  try {
    const info = await ws.repo();
    if (!info) return NOT_REPO;
    const state = await captureWorkState(ws, info);
    if (state.indexTree === null) return { ok: false, reason: 'the index has unresolved merge conflicts; resolve them (or abort the merge) so Ralph can checkpoint' };
    const records = readCheckpointRecords(recordsPath(ws), options.warn ?? noWarn);
    const loop = Math.max(0, Math.floor(options.loop));
    const id = uniqueId(`cp${loop}-${options.now.toString(36)}`, new Set(records.map((r) => r.id)));
    const message = `${STASH_PREFIX} ${options.label ?? `loop ${loop}`}`;
    const createdAt = new Date(options.now).toISOString();
    const env = identityEnv(options.now);
    const on = shortName(state.branch);

    // A stash needs a base commit; on an unborn branch that is an empty commit of our own.
    const base = state.head ?? (await commitTree(ws, (await gitOk(ws, ['mktree'], { input: '' })).trim(), [], `ralph checkpoint base: ${on} has no commits yet`, env));
    const [indexCommit, untrackedCommit] = await Promise.all([
      commitTree(ws, state.indexTree, [base], `index on ${on}: ${message}`, env),
      state.untrackedTree ? commitTree(ws, state.untrackedTree, [], `untracked files on ${on}: ${message}`, env) : Promise.resolve(null),
    ]);
    const body = [
      message,
      '',
      'Saved by Ralph before an iteration: work tree, index and untracked files.',
      '`ralph --checkpoints` lists checkpoints; `ralph --restore <id>` brings one back.',
      '',
      `Ralph-Checkpoint: ${id}`,
      `Ralph-Loop: ${loop}`,
      `Ralph-Created-At: ${createdAt}`,
      `Ralph-Head: ${state.head ?? 'unborn'}`,
      `Ralph-Branch: ${state.branch ?? 'detached'}`,
      `Ralph-Worktree-Tree: ${state.fullTree}`,
      '',
    ].join('\n');
    const commit = await commitTree(ws, state.trackedTree, [base, indexCommit, ...(untrackedCommit ? [untrackedCommit] : [])], body, env);
    await gitOk(ws, ['stash', 'store', '-m', message, commit], { env });

    const checkpoint: Checkpoint = {
      id,
      loop,
      message,
      createdAt,
      head: state.head,
      branch: state.branch,
      indexTree: state.indexTree,
      worktreeTree: state.fullTree,
      trackedTree: state.trackedTree,
      untrackedTree: state.untrackedTree,
      commit,
    };
    writeCheckpointRecords(recordsPath(ws), [...records, checkpoint]);
    return { ok: true, checkpoint };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

// ------------------------------------------------------------------ drop, prune, list

export async function dropCheckpoint(ws: GitWorkspace, checkpoint: Checkpoint | string, options: { warn?: Warn } = {}): Promise<{ ok: true; dropped: boolean } | Failure> {
  try {
    if (!(await ws.repo())) return NOT_REPO;
    const path = recordsPath(ws);
    const records = readCheckpointRecords(path, options.warn ?? noWarn);
    const cp = typeof checkpoint === 'string' ? records.find((r) => r.id === checkpoint) : checkpoint;
    if (!cp) return { ok: false, reason: `no checkpoint "${String(checkpoint)}"` };
    const dropped = await dropStashEntry(ws, cp.commit);
    writeCheckpointRecords(
      path,
      records.filter((r) => r.id !== cp.id),
    );
    return { ok: true, dropped };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

/** Keeps the newest `keep` of our checkpoints and drops the rest; other stash entries are never touched. */
export async function pruneCheckpoints(ws: GitWorkspace, keep: number, options: { warn?: Warn } = {}): Promise<{ ok: true; dropped: string[]; kept: string[] } | Failure> {
  try {
    if (!(await ws.repo())) return NOT_REPO;
    const path = recordsPath(ws);
    const records = readCheckpointRecords(path, options.warn ?? noWarn);
    const inStash = new Set((await stashEntries(ws)).filter(isOurs).map((e) => e.commit));
    const live = records.filter((r) => inStash.has(r.commit)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const doomed = live.slice(0, Math.max(0, live.length - Math.max(0, Math.floor(keep))));
    for (const cp of doomed) await dropStashEntry(ws, cp.commit);
    const doomedIds = new Set(doomed.map((c) => c.id));
    // Records whose stash entry is already gone (dropped by hand) go too.
    const kept = records.filter((r) => inStash.has(r.commit) && !doomedIds.has(r.id));
    writeCheckpointRecords(path, kept);
    return { ok: true, dropped: doomed.map((c) => c.id), kept: kept.map((c) => c.id) };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

export interface CheckpointListing extends Checkpoint {
  /** Position in `git stash list` right now, or null when the entry was dropped. */
  stashIndex: number | null;
}

export interface AttemptRef {
  ref: string;
  commit: string;
  date: string;
  subject: string;
}

export async function listAttempts(ws: GitWorkspace): Promise<AttemptRef[]> {
  const out = await gitOk(ws, ['for-each-ref', '--sort=creatordate', '--format=%(refname)%00%(objectname)%00%(creatordate:iso-strict)%00%(subject)', ATTEMPT_REF_PREFIX]);
  return out
    .split('\n')
    .filter((l) => l.length > 0)
    .map((line) => {
      const [ref = '', commit = '', date = '', subject = ''] = line.split('\0');
      return { ref, commit, date, subject };
    });
}

/**
 * Our checkpoints, oldest first. Stash entries of ours missing from the record
 * list (after a corrupt list was reset) are read back from their commits.
 */
export async function listCheckpoints(ws: GitWorkspace, options: { warn?: Warn } = {}): Promise<{ ok: true; checkpoints: CheckpointListing[]; attempts: AttemptRef[] } | Failure> {
  try {
    if (!(await ws.repo())) return NOT_REPO;
    const path = recordsPath(ws);
    const records = readCheckpointRecords(path, options.warn ?? noWarn);
    const entries = await stashEntries(ws);
    const known = new Set(records.map((r) => r.commit));
    let recovered = false;
    for (const entry of entries.filter(isOurs)) {
      if (known.has(entry.commit)) continue;
      const cp = await checkpointFromCommit(ws, entry.commit, entry.message);
      if (typeof cp === 'string') continue;
      records.push(cp);
      known.add(cp.commit);
      recovered = true;
    }
    records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    if (recovered) writeCheckpointRecords(path, records);
    const position = new Map(entries.filter(isOurs).map((e) => [e.commit, e.position] as const));
    const checkpoints = records.map((cp) => ({ ...cp, stashIndex: position.get(cp.commit) ?? null }));
    return { ok: true, checkpoints, attempts: await listAttempts(ws) };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

// ------------------------------------------------------------------ restore (ralph --restore ID)

function findCheckpoint(list: readonly Checkpoint[], id: string): Checkpoint | string {
  const exact = list.find((c) => c.id === id);
  if (exact) return exact;
  const matches = list.filter((c) => c.id.startsWith(id) || (id.length >= 7 && c.commit.startsWith(id)));
  if (matches.length === 1) return matches[0] as Checkpoint;
  if (matches.length > 1) return `"${id}" matches ${matches.length} checkpoints (${matches.map((c) => c.id).join(', ')}); give more of the id`;
  return `no checkpoint "${id}"; \`ralph --checkpoints\` lists them`;
}

export type RestoreResult = (Awaited<ReturnType<typeof rollbackToCheckpoint>> & { ok: true; checkpoint: Checkpoint; safety: Checkpoint }) | Failure;

/** `ralph --restore ID`: checkpoints the present first, then rolls back to ID. */
export async function restoreCheckpoint(ws: GitWorkspace, id: string, options: { now: number; loop?: number; warn?: Warn }): Promise<RestoreResult> {
  const listing = await listCheckpoints(ws, options.warn ? { warn: options.warn } : {});
  if (!listing.ok) return listing;
  const cp = findCheckpoint(listing.checkpoints, id);
  if (typeof cp === 'string') return { ok: false, reason: cp };
  const safety = await createCheckpoint(ws, { loop: options.loop ?? cp.loop, now: options.now, label: `before restore of ${cp.id}`, ...(options.warn ? { warn: options.warn } : {}) });
  if (!safety.ok) return { ok: false, reason: `could not checkpoint the present state first (${safety.reason}); nothing was changed` };
  const result = await rollbackToCheckpoint(ws, cp, { attemptLabel: `state before restore of ${cp.id}`, now: options.now });
  if (!result.ok) return result;
  return { ...result, checkpoint: cp, safety: safety.checkpoint };
}
