import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import type { Checkpoint } from '../state/documents/checkpoint.js';
import { CheckpointError } from './checkpoint-error.js';
import { PROCESS_FILE, displayPath, gitBytes, gitText, ralphGitDir, tempName, underRoot, type RepoContext } from './git-plumbing.js';
import { captureRepoState, type RepoState } from './repo-state.js';
import { clearJournal, readJournal, writeJournal } from './rollback-journal.js';
import { readSnapshot, writeSnapshot, type Snapshot } from './snapshot-commit.js';
import { applyState, type ApplyReport, type AttemptPlace, type StepHook } from './state-apply.js';
import { diffStates, isSameState } from './state-diff.js';
import { StatCache } from './stat-cache.js';

/**
 * Lossless rollback: first the present — files, index, HEAD, every ref the
 * agent left, the stash, operation state — is saved as an attempt under
 * refs/ralph/attempts/<id>/ (its files at `…/files`, each ref it changed at
 * `…/<refname>`); then a journal is written; then the checkpoint's state is
 * put back and checked. A rollback cut short is finished at the next start.
 */

export const ATTEMPT_REF_PREFIX = 'refs/ralph/attempts/';

export interface RollbackOptions {
  /** Names the saved attempt (`loop 7`, `state before restore of cp3-…`). */
  attemptLabel: string;
  now?: number;
  /** Called between the steps of the rollback (progress, and where tests cut it short). */
  onStep?: StepHook;
}

export interface RollbackReport extends ApplyReport {
  /** Files the rollback changed, as text relative to the project directory. */
  reverted: string[];
}

export type RollbackResult =
  | {
      ok: true;
      /** False when everything already matched the checkpoint. */
      restored: boolean;
      /** Where the discarded attempt's files are kept (null when there was nothing to discard). */
      attemptRef: string | null;
      attemptCommit: string | null;
      report: RollbackReport;
      /** HEAD or a ref was moved back. */
      headMoved: boolean;
      /** The command that brings one reverted file back from the attempt (`<path>` is a placeholder). */
      restoreCommand: string | null;
    }
  | RollbackFailure;

export interface RollbackFailure {
  ok: false;
  reason: string;
  /** True when the rollback changed something before it stopped (the work tree is neither before nor after). */
  changed?: boolean;
  attemptRef?: string;
  report?: RollbackReport;
  restoreCommand?: string;
}

export function restoreCommandFor(attemptRef: string): string {
  return `git restore --source=${attemptRef} -- <path>`;
}

function emptyReport(): RollbackReport {
  return { written: [], deleted: [], chmodded: [], keptIgnored: [], displaced: [], unrestored: [], reverted: [] };
}

function toReport(apply: ApplyReport): RollbackReport {
  const reverted = [...new Set([...apply.written, ...apply.deleted, ...apply.chmodded])].sort().map(displayPath);
  return {
    ...apply,
    written: apply.written.map(displayPath),
    deleted: apply.deleted.map(displayPath),
    chmodded: apply.chmodded.map(displayPath),
    keptIgnored: apply.keptIgnored.map(displayPath),
    displaced: apply.displaced.map(displayPath),
    reverted,
  };
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).map(displayPath).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/** What still differs from the target after a rollback, plus what could not be restored. */
async function leftOver(ctx: RepoContext, target: Snapshot, cache: StatCache, unrestored: readonly string[]): Promise<string[]> {
  const after = await captureRepoState(ctx, cache, target.state.files.keys());
  const d = diffStates(after, target.state);
  const problems = [...unrestored];
  if (d.files.length > 0) problems.push(`files still differ: ${list(d.files)}`);
  // A directory that was empty may now hold files git ignores (the agent's build output, say),
  // which a rollback never touches: the directory is there as it was, and anything else in it
  // that git does not ignore would be among the files that differ.
  const wasEmpty = new Set(target.state.emptyDirs ?? []);
  const emptyDirs = d.emptyDirs.filter((dir) => !(wasEmpty.has(dir) && isRealDirectory(ctx.project, dir)));
  if (emptyDirs.length > 0) problems.push(`empty directories differ: ${list(emptyDirs)}`);
  problems.push(...d.other.map((o) => `${o} still differs`));
  return problems;
}

/** Whether `rel` under `root` is a directory reached through directories only, no symbolic link on the way. */
function isRealDirectory(root: string, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i += 1) {
    const st = lstatSync(underRoot(root, parts.slice(0, i).join('/')), { throwIfNoEntry: false });
    if (!st?.isDirectory()) return false;
  }
  return true;
}

async function freeAttemptId(ctx: RepoContext, base: string): Promise<string> {
  const taken = new Set(
    (await gitText(['for-each-ref', '--format=%(refname)', ATTEMPT_REF_PREFIX], { cwd: ctx.root }))
      .split('\n')
      .filter(Boolean)
      .map((r) => r.slice(ATTEMPT_REF_PREFIX.length).split('/')[0]),
  );
  for (let n = 1; ; n += 1) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** Saves the present as an attempt: its files commit plus every ref it changed, in one transaction. */
async function saveAttempt(
  ctx: RepoContext,
  target: Snapshot,
  present: RepoState,
  label: string,
  now: number,
  cache: StatCache,
): Promise<{ ref: string; commit: string }> {
  const id = await freeAttemptId(ctx, target.id);
  const commit = await writeSnapshot(
    ctx,
    present,
    {
      kind: 'attempt',
      id,
      loop: target.loop,
      createdAt: new Date(now).toISOString(),
      subject: `ralph attempt: ${label}`,
      body: [
        `What an attempt left, saved by Ralph before rolling back to checkpoint ${target.id}:`,
        "the files of the project as they were on disk (this commit's tree), and the",
        'refs it changed next to this ref. Bring a file back with',
        `  ${restoreCommandFor(`${ATTEMPT_REF_PREFIX}${id}/files`)}`,
      ],
    },
    cache,
    now,
  );
  const base = `${ATTEMPT_REF_PREFIX}${id}`;
  const commands = [`create ${base}/files\0${commit}\0`];
  const before = new Map((target.state.refs ?? []).map((r) => [r.name, r.oid] as const));
  for (const ref of present.refs ?? []) if (!ref.symref && before.get(ref.name) !== ref.oid) commands.push(`create ${base}/${ref.name}\0${ref.oid}\0`);
  if (/^[0-9a-f]{40,64}$/.test(present.head) && present.head !== target.state.head) commands.push(`create ${base}/HEAD\0${present.head}\0`);
  await gitBytes(['update-ref', '-z', '--stdin', '-m', `ralph: attempt saved before rollback to ${target.id}`], { cwd: ctx.root, input: commands.join('') });
  return { ref: `${base}/files`, commit };
}

function headOrRefsMoved(present: RepoState, target: RepoState): boolean {
  if (present.head !== target.head) return true;
  if (target.refs === null) return false;
  const key = (r: { name: string; oid: string }): string => `${r.name} ${r.oid}`;
  const want = new Set(target.refs.map(key));
  return (present.refs ?? []).length !== target.refs.length || (present.refs ?? []).some((r) => !want.has(key(r)));
}

/** Applies a snapshot with the journal already written; clears it when the result is checked. */
async function applyJournaled(
  ctx: RepoContext,
  target: Snapshot,
  cache: StatCache,
  step: StepHook,
  attempt: AttemptPlace,
): Promise<{ report: RollbackReport; problems: string[] }> {
  const apply = await applyState(ctx, target.state, cache, `ralph-displaced-${target.id}`, step, attempt);
  const problems = await leftOver(ctx, target, cache, apply.unrestored);
  clearJournal(ctx);
  cache.save(Date.now(), tempName('cache'));
  return { report: toReport(apply), problems };
}

export async function rollbackWith(ctx: RepoContext, cp: Checkpoint, options: RollbackOptions): Promise<RollbackResult> {
  const step = options.onStep ?? (() => undefined);
  let attemptRef: string | undefined;
  let changing = false;
  try {
    const now = options.now ?? Date.now();
    const target = await readSnapshot(ctx, cp.commit);
    if (typeof target === 'string') return { ok: false, reason: `checkpoint ${cp.id} cannot be used: ${target}; nothing was changed` };
    if (target.id !== cp.id || target.kind !== 'checkpoint') return { ok: false, reason: `checkpoint ${cp.id} does not match its commit; nothing was changed` };
    const cache = StatCache.load(ralphGitDir(ctx));
    const present = await captureRepoState(ctx, cache, target.state.files.keys());
    if (isSameState(diffStates(present, target.state))) {
      return { ok: true, restored: false, attemptRef: null, attemptCommit: null, report: emptyReport(), headMoved: false, restoreCommand: null };
    }
    const attempt = await saveAttempt(ctx, target, present, options.attemptLabel, now, cache);
    attemptRef = attempt.ref;
    step('attempt-saved');
    writeJournal(ctx, {
      version: 1,
      checkpointId: target.id,
      checkpointCommit: target.commit,
      attemptRef: attempt.ref,
      attemptCommit: attempt.commit,
      startedAt: new Date(now).toISOString(),
      pid: process.pid,
    });
    changing = true;
    step('journal');
    const { report, problems } = await applyJournaled(ctx, target, cache, step, attempt);
    const restoreCommand = restoreCommandFor(attempt.ref);
    if (problems.length > 0) {
      return {
        ok: false,
        changed: true,
        reason: `the rollback to ${cp.id} is incomplete: ${problems.join('; ')}. The attempt is kept at ${attempt.ref}`,
        attemptRef: attempt.ref,
        report,
        restoreCommand,
      };
    }
    return {
      ok: true,
      restored: true,
      attemptRef: attempt.ref,
      attemptCommit: attempt.commit,
      report,
      headMoved: headOrRefsMoved(present, target.state),
      restoreCommand,
    };
  } catch (error) {
    const why = error instanceof CheckpointError ? error.message : errorMessage(error);
    const saved = attemptRef ? `; the attempt is kept at ${attemptRef}` : '';
    const state = changing ? '; the rollback stopped part-way and is finished at the next start of ralph' : '; nothing was changed';
    return {
      ok: false,
      reason: `${why}${state}${saved}`,
      changed: changing,
      ...(attemptRef ? { attemptRef, restoreCommand: restoreCommandFor(attemptRef) } : {}),
    };
  }
}

export interface ResumeOutcome {
  /** What happened, for the user; null when there was nothing to finish. */
  message: string | null;
  ok: boolean;
}

/**
 * Finishes a rollback that was cut short (its journal is still there), so a
 * run never carries on from a tree that is neither before nor after.
 */
export async function finishInterruptedRollback(ctx: RepoContext): Promise<ResumeOutcome> {
  const journal = readJournal(ctx);
  if (journal === null) return { message: null, ok: true };
  if (typeof journal === 'string') {
    const path = join(ralphGitDir(ctx), 'rollback-journal.json');
    renameSync(path, `${path}.corrupt`);
    return { ok: false, message: `${journal}; it was set aside as ${path}.corrupt. Saved attempts are listed by ralph --checkpoints.` };
  }
  const target = await readSnapshot(ctx, journal.checkpointCommit);
  if (typeof target === 'string') {
    return {
      ok: false,
      message: `An interrupted rollback to checkpoint ${journal.checkpointId} cannot be finished: ${target}. The attempt is kept at ${journal.attemptRef}.`,
    };
  }
  const cache = StatCache.load(ralphGitDir(ctx));
  try {
    const { report, problems } = await applyJournaled(ctx, target, cache, () => undefined, { ref: journal.attemptRef, commit: journal.attemptCommit });
    const files = report.reverted.length > 0 ? ` (${report.reverted.length} file${report.reverted.length === 1 ? '' : 's'} put back)` : '';
    if (problems.length > 0) {
      return {
        ok: false,
        message: `Finished an interrupted rollback to checkpoint ${journal.checkpointId}, but it is incomplete: ${problems.join('; ')}. The attempt is kept at ${journal.attemptRef}.`,
      };
    }
    return {
      ok: true,
      message: `A rollback to checkpoint ${journal.checkpointId} was interrupted (started ${journal.startedAt}); Ralph finished it now${files}. The attempt is kept at ${journal.attemptRef}; bring a file back with: ${restoreCommandFor(journal.attemptRef)}`,
    };
  } catch (error) {
    return {
      ok: false,
      message: `An interrupted rollback to checkpoint ${journal.checkpointId} could not be finished: ${errorMessage(error)}. It is tried again at the next start; the attempt is kept at ${journal.attemptRef}.`,
    };
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temporary files a killed Ralph left in its git-dir area (never those of a live process). */
export function removeLeftovers(ctx: RepoContext): void {
  const dir = ralphGitDir(ctx);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const match = PROCESS_FILE.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}
