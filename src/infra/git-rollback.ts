import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import type { Checkpoint } from './checkpoint-records.js';
import { ATTEMPT_REF_PREFIX, NOT_REPO, checkpointFromCommit, commitTree, identityEnv, revParse, type Failure } from './checkpoint-commits.js';
import { captureWorkState, diffTrees, gitOk, overlayTrees, restoreWorkTree, type RestoreReport, type WorkState } from './git-snapshot.js';
import type { GitInfo, GitWorkspace } from './git-workspace.js';

/**
 * Lossless rollback (spec §8): first the present — work tree with untracked
 * files, index, HEAD — is saved as a commit under refs/ralph/attempts/<id>;
 * then the checkpoint's state is written back: contents, deleted files, files
 * the attempt created removed, the index, HEAD and branch. Ignored files and
 * Ralph's own state are never touched. The checkpoint is checked to be ours and
 * intact before anything changes, and the result is checked against it after.
 */

export interface RollbackOptions {
  /** Names the saved attempt (`loop 7`, `state before restore of cp3-…`). */
  attemptLabel: string;
  now?: number;
}

export type RollbackResult =
  | {
      ok: true;
      /** False when the work tree, index and HEAD already matched the checkpoint. */
      restored: boolean;
      /** Where the discarded attempt is kept (null when there was nothing to discard). */
      attemptRef: string | null;
      attemptCommit: string | null;
      report: RestoreReport;
      /** HEAD or the branch was moved back (the attempt had committed or switched). */
      headMoved: boolean;
    }
  | Failure;

/** Checks the checkpoint is ours and intact; returns its full tree. */
async function verifyCheckpoint(ws: GitWorkspace, info: GitInfo, cp: Checkpoint): Promise<string> {
  const stored = await checkpointFromCommit(ws, cp.commit);
  if (typeof stored === 'string') throw new Error(`checkpoint ${cp.id} cannot be used: ${stored}`);
  const mismatch =
    stored.id !== cp.id
      ? 'its commit belongs to another checkpoint'
      : stored.trackedTree !== cp.trackedTree || stored.indexTree !== cp.indexTree || stored.untrackedTree !== cp.untrackedTree
        ? 'its trees differ from the record'
        : stored.head !== cp.head
          ? 'its HEAD differs from the record'
          : undefined;
  if (mismatch) throw new Error(`checkpoint ${cp.id} does not match its commit (${mismatch}); nothing was changed`);
  const full = await overlayTrees(ws, info, cp.trackedTree, cp.untrackedTree);
  if (full !== cp.worktreeTree) throw new Error(`checkpoint ${cp.id} is damaged (its work tree does not add up); nothing was changed`);
  return full;
}

async function freeAttemptRef(ws: GitWorkspace, id: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const ref = `${ATTEMPT_REF_PREFIX}${id}${n === 1 ? '' : `-${n}`}`;
    if ((await ws.run(['rev-parse', '-q', '--verify', ref])).exitCode !== 0) return ref;
  }
}

async function saveAttempt(ws: GitWorkspace, cp: Checkpoint, present: WorkState, branchTip: string | null, label: string, now: number): Promise<{ ref: string; commit: string }> {
  const env = identityEnv(now);
  const headParents = present.head ? [present.head] : [];
  const indexCommit = await commitTree(ws, present.indexTree ?? present.fullTree, headParents, `index of ralph attempt: ${label}`, env);
  const extra = branchTip && branchTip !== present.head && branchTip !== cp.head ? [branchTip] : [];
  const message = [
    `ralph attempt: ${label}`,
    '',
    `The work tree of an attempt Ralph rolled back (tracked and untracked files), saved before restoring checkpoint ${cp.id}.`,
    [present.head ? "Parents: the attempt's HEAD, its index" : "Parents: the attempt's index (no commits yet)", ...(extra.length ? ["the tip it left on the checkpoint's branch"] : [])].join(', then ') + '.',
    present.indexTree === null ? 'The index had unresolved conflicts; the index parent holds the work-tree version of those files.' : '',
    '',
    `Ralph-Attempt-Of: ${cp.id}`,
    `Ralph-Head: ${present.head ?? 'unborn'}`,
    `Ralph-Branch: ${present.branch ?? 'detached'}`,
    '',
  ]
    .filter((line, i, all) => !(line === '' && all[i - 1] === ''))
    .join('\n');
  const commit = await commitTree(ws, present.fullTree, [...headParents, indexCommit, ...extra], message, env);
  const ref = await freeAttemptRef(ws, cp.id);
  await gitOk(ws, ['update-ref', '-m', `ralph: attempt saved before rollback to ${cp.id}`, ref, commit, '']);
  return { ref, commit };
}

async function restoreRefs(ws: GitWorkspace, cp: Checkpoint, present: WorkState, branchTip: string | null): Promise<boolean> {
  const msg = `ralph: rollback to checkpoint ${cp.id}`;
  let moved = false;
  if (cp.branch) {
    if (cp.head === null) {
      if (branchTip) {
        await gitOk(ws, ['update-ref', '-m', msg, '-d', cp.branch, branchTip]);
        moved = true;
      }
    } else if (branchTip !== cp.head) {
      await gitOk(ws, ['update-ref', '-m', msg, cp.branch, cp.head, branchTip ?? '']);
      moved = true;
    }
    if (present.branch !== cp.branch) {
      await gitOk(ws, ['symbolic-ref', '-m', msg, 'HEAD', cp.branch]);
      moved = true;
    }
  } else if (cp.head && (present.branch !== null || present.head !== cp.head)) {
    await gitOk(ws, ['update-ref', '--no-deref', '-m', msg, 'HEAD', cp.head]);
    moved = true;
  }
  return moved;
}

async function restoreIndex(ws: GitWorkspace, info: GitInfo, tree: string): Promise<void> {
  // --reset: like -m (keeps stat data of unchanged entries) but also drops unmerged entries.
  await gitOk(ws, ['read-tree', '--reset', tree], { cwd: info.root });
  await ws.run(['update-index', '-q', '--refresh'], { cwd: info.root });
}

async function describeDifferences(ws: GitWorkspace, info: GitInfo, after: WorkState, cp: Checkpoint, target: string): Promise<string[]> {
  const problems: string[] = [];
  if (after.fullTree !== target) {
    const paths = (await diffTrees(ws, info, after.fullTree, target)).map((e) => e.path);
    if (paths.length > 0) problems.push(`files still differ: ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`);
  }
  if (after.indexTree !== cp.indexTree) problems.push('the index differs');
  if (after.head !== cp.head) problems.push(`HEAD is ${after.head ?? 'unborn'}, expected ${cp.head ?? 'unborn'}`);
  if (after.branch !== cp.branch) problems.push(`HEAD is on ${after.branch ?? 'no branch'}, expected ${cp.branch ?? 'a detached HEAD'}`);
  return problems;
}

export async function rollbackToCheckpoint(ws: GitWorkspace, cp: Checkpoint, options: RollbackOptions): Promise<RollbackResult> {
  let attemptRef: string | undefined;
  try {
    const info = await ws.repo();
    if (!info) return NOT_REPO;
    if (existsSync(join(info.gitDir, 'index.lock'))) {
      return { ok: false, reason: `another git process holds ${join(info.gitDir, 'index.lock')}; nothing was changed` };
    }
    const target = await verifyCheckpoint(ws, info, cp);
    let present = await captureWorkState(ws, info);
    // Files the checkpoint has that the present capture skipped because the attempt's
    // .gitignore now ignores them: on disk, and the attempt's version must be kept.
    const hidden = (await diffTrees(ws, info, present.fullTree, target))
      .filter((e) => e.status === 'A' && e.dstMode !== '160000')
      .map((e) => e.path)
      .filter((p) => {
        try {
          return !lstatSync(join(info.root, p)).isDirectory();
        } catch {
          return false;
        }
      });
    if (hidden.length > 0) present = await captureWorkState(ws, info, hidden);
    const branchTip = cp.branch ? await revParse(ws, cp.branch) : null;
    const empty: RestoreReport = { written: [], deleted: [], keptIgnored: [], displaced: [] };
    const unchanged =
      present.fullTree === target && present.indexTree === cp.indexTree && present.head === cp.head && present.branch === cp.branch && (cp.branch === null || branchTip === cp.head);
    if (unchanged) return { ok: true, restored: false, attemptRef: null, attemptCommit: null, report: empty, headMoved: false };

    const attempt = await saveAttempt(ws, cp, present, branchTip, options.attemptLabel, options.now ?? Date.now());
    attemptRef = attempt.ref;
    const headMoved = await restoreRefs(ws, cp, present, branchTip);
    const report = await restoreWorkTree(ws, info, present.fullTree, target, `ralph-displaced-${cp.id}`);
    await restoreIndex(ws, info, cp.indexTree);

    const problems = await describeDifferences(ws, info, await captureWorkState(ws, info), cp, target);
    if (problems.length > 0) {
      return { ok: false, reason: `rollback to ${cp.id} is incomplete: ${problems.join('; ')}. The attempt is saved in ${attempt.ref}`, attemptRef: attempt.ref };
    }
    return { ok: true, restored: true, attemptRef: attempt.ref, attemptCommit: attempt.commit, report, headMoved };
  } catch (error) {
    const saved = attemptRef ? `; the attempt is saved in ${attemptRef}` : '';
    return { ok: false, reason: `${errorMessage(error)}${saved}`, ...(attemptRef ? { attemptRef } : {}) };
  }
}
