import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import type { Checkpoint } from '../../state/documents/checkpoint.js';
import { CheckpointError } from '../checkpoint-error.js';
import { PROCESS_FILE, displayPath, gitBytes, gitText, ralphGitDir, tempName, underRoot, type RepoContext } from '../git/git-plumbing.js';
import { captureRepoState, type FileEntry, type OpFile, type RepoState } from '../capture/repo-state.js';
import { clearJournal, readJournal, writeJournal, type RollbackJournal } from './rollback-journal.js';
import { readSnapshot, writeSnapshot, type Snapshot } from '../store/snapshot-commit.js';
import { applyState, emptyApplyReport, type ApplyReport, type AttemptPlace, type RefScope, type StepHook } from './state-apply.js';
import { diffStates, isSameState } from '../../core/checkpoint-state-diff.js';
import { describeLeftRefs, describeLeftStash, describeMovedRefs } from '../../core/rollback-ref-scope.js';
import { planRollbackScope, type AttemptEnd } from './rollback-scope.js';
import { StatCache } from '../capture/stat-cache.js';

/**
 * Lossless rollback of one loop's attempt: first the present — files, index,
 * HEAD, every ref, the stash, operation state — is saved as an attempt under
 * refs/ralph/attempts/<id>/ (its files at `…/files`, each ref that differs at
 * `…/<refname>`); then a journal is written; then the project's files, the
 * index, HEAD and operation state are put back, and of the refs only those
 * the attempt changed and nobody touched since (rollback-scope.ts); then it
 * is checked. A rollback cut short is finished at the next start, unless the
 * project changed after it was cut short: then that state is saved first and
 * nothing is undone.
 */

export const ATTEMPT_REF_PREFIX = 'refs/ralph/attempts/';

export interface RollbackOptions {
  /** Names the saved attempt (`loop 7`, `state before restore of cp3-…`). */
  attemptLabel: string;
  now?: number;
  /** Called between the steps of the rollback (progress, and where tests cut it short). */
  onStep?: StepHook;
  /** The refs and stash when the attempt ended; without it the present stands in (a restore, a rollback inside the agent's call). */
  attemptEnd?: AttemptEnd;
}

export interface RollbackReport extends ApplyReport {
  /** Files the rollback changed, as text relative to the project directory. */
  reverted: string[];
  /** Each ref the rollback moved, as a line for the user. */
  refsMoved: string[];
  /** Each ref that differs from the checkpoint and was left, with why and the command that restores it. */
  refsLeft: string[];
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

function emptyReport(leftRefs: RollbackReport['leftRefs'] = []): RollbackReport {
  return {
    ...emptyApplyReport(leftRefs),
    reverted: [],
    refsMoved: [],
    refsLeft: describeLeftRefs(leftRefs),
  };
}

function toReport(apply: ApplyReport): RollbackReport {
  const reverted = [...new Set([...apply.written, ...apply.deleted, ...apply.chmodded])].sort().map(displayPath);
  const notes = [...apply.notes];
  if (apply.reopened.length > 0)
    notes.push(`the owner of ${list(apply.reopened)} had lost access to it (a chmod of the attempt): read, write and search were given back to the owner`);
  if (apply.stashLeft) notes.push('the stash changed while the rollback ran, so it was left as it is');
  if (apply.displaced.length > 0)
    notes.push(`ignored files that were in the way of restored ones were moved aside, out of the project: ${list(apply.displaced)}`);
  return {
    ...apply,
    written: apply.written.map(displayPath),
    deleted: apply.deleted.map(displayPath),
    chmodded: apply.chmodded.map(displayPath),
    keptIgnored: apply.keptIgnored.map(displayPath),
    displaced: apply.displaced.map(displayPath),
    reopened: apply.reopened.map(displayPath),
    notes,
    reverted,
    refsMoved: describeMovedRefs(apply.movedRefs),
    refsLeft: describeLeftRefs(apply.leftRefs),
  };
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).map(displayPath).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/**
 * What still differs from the target after a rollback, plus what could not be
 * restored. Refs are not compared with the checkpoint's as a whole: only the
 * ones the rollback moved must now have the checkpoint's value.
 */
async function leftOver(ctx: RepoContext, target: Snapshot, cache: StatCache, apply: ApplyReport): Promise<string[]> {
  const after = await captureRepoState(ctx, cache, target.state.files.keys());
  const d = diffStates(after, { ...target.state, refs: null });
  const problems = [...apply.unrestored];
  const now = new Map((after.refs ?? []).map((r) => [r.name, r.oid] as const));
  const stuck = apply.movedRefs.filter((m) => (now.get(m.name) ?? null) !== m.to).map((m) => m.name);
  if (stuck.length > 0) problems.push(`refs ${stuck.join(', ')} were not moved back`);
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

/** Applies a snapshot with the journal already written; clears it when the result is checked. */
async function applyJournaled(
  ctx: RepoContext,
  target: Snapshot,
  scope: RefScope,
  cache: StatCache,
  step: StepHook,
  attempt: AttemptPlace,
): Promise<{ report: RollbackReport; problems: string[] }> {
  const apply = await applyState(ctx, target.state, cache, `ralph-displaced-${target.id}`, scope, step, attempt);
  const problems = await leftOver(ctx, target, cache, apply);
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
    const plan = await planRollbackScope(ctx, target.state, present, options.attemptEnd ?? null, Date.parse(target.createdAt) || now);
    const scope: RefScope = { moves: plan.moves, stash: plan.stash };
    const stashLeft = plan.stashPlan ? describeLeftStash(plan.stashPlan) : [];
    if (isSameState(diffStates(present, { ...target.state, refs: null })) && plan.moves.length === 0 && plan.stash === null) {
      const report = emptyReport(plan.left);
      report.refsLeft.push(...stashLeft);
      return { ok: true, restored: false, attemptRef: null, attemptCommit: null, report, headMoved: false, restoreCommand: null };
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
      refMoves: plan.moves,
      stash: plan.stash,
    });
    changing = true;
    step('journal');
    const { report, problems } = await applyJournaled(ctx, target, scope, cache, step, attempt);
    report.leftRefs.unshift(...plan.left);
    report.refsLeft.unshift(...describeLeftRefs(plan.left), ...stashLeft);
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
      headMoved: present.head !== target.state.head || report.movedRefs.length > 0,
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

function sameEntry(a: FileEntry | undefined, b: FileEntry | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.mode === b.mode && a.oid === b.oid && a.perm === b.perm);
}

function opText(files: readonly OpFile[] | null): string {
  return (files ?? []).map((f) => `${f.path} ${f.perm} ${f.content?.toString('base64') ?? '-'}`).join('\n');
}

/**
 * What in the present is neither as the interrupted rollback found it (`start`)
 * nor as it was putting it (`target`, the planned refs and stash): work done
 * after the rollback was cut short. Empty when only the rollback changed things.
 */
function changedSince(present: RepoState, start: RepoState, target: RepoState, journal: RollbackJournal): string[] {
  const out: string[] = [];
  const paths = new Set([...present.files.keys(), ...start.files.keys(), ...target.files.keys()]);
  const files: string[] = [];
  for (const path of paths) {
    const now = present.files.get(path);
    if (now?.mode === '160000' || start.files.get(path)?.mode === '160000') continue;
    if (!sameEntry(now, start.files.get(path)) && !sameEntry(now, target.files.get(path))) files.push(path);
  }
  if (files.length > 0) out.push(`files ${list(files.sort())}`);
  const sameIndex = (a: RepoState, b: RepoState): boolean =>
    a.indexView && b.indexView ? a.indexView === b.indexView : a.index === null || b.index === null ? a.index === b.index : a.index.equals(b.index);
  if (!sameIndex(present, start) && !sameIndex(present, target)) out.push('the index');
  if (present.head !== start.head && present.head !== target.head) out.push('HEAD');
  const refs = new Map((present.refs ?? []).map((r) => [r.name, r.oid] as const));
  const moved = (journal.refMoves ?? []).filter((m) => ![m.from, m.to].includes(refs.get(m.name) ?? null)).map((m) => m.name);
  if (moved.length > 0) out.push(`refs ${moved.join(', ')}`);
  const stash = journal.stash;
  const stashNow = present.stashLog?.toString('latin1') ?? null;
  if (stash && stashNow !== stash.log && stashNow !== (start.stashLog?.toString('latin1') ?? null)) out.push('the stash');
  const op = opText(present.opState);
  if (op !== opText(start.opState) && op !== opText(target.opState)) out.push('the state of a merge, rebase or cherry-pick');
  return out;
}

export interface ResumeOptions {
  /** False for listings and status: say what is pending, change nothing. */
  write: boolean;
  now?: number;
}

/**
 * Finishes a rollback that was cut short (its journal is still there), so a
 * run never carries on from a tree that is neither before nor after. When the
 * project changed after the rollback was cut short (the user edited, committed),
 * that work is never undone: the present is saved as an attempt first, the
 * rollback is not finished, and the message says where everything is.
 */
export async function finishInterruptedRollback(ctx: RepoContext, options: ResumeOptions = { write: true }): Promise<ResumeOutcome> {
  const journal = readJournal(ctx);
  if (journal === null) return { message: null, ok: true };
  const path = join(ralphGitDir(ctx), 'rollback-journal.json');
  if (typeof journal === 'string') {
    if (!options.write) return { ok: false, message: `${journal}; the next start of ralph sets it aside. Saved attempts are listed by ralph --checkpoints.` };
    renameSync(path, `${path}.corrupt`);
    return {
      ok: false,
      message: `${journal}; it was set aside as ${path}.corrupt and nothing was changed. Saved attempts are listed by ralph --checkpoints; ralph --restore <id> brings a checkpoint back.`,
    };
  }
  if (!options.write) {
    return {
      ok: false,
      message: `A rollback to checkpoint ${journal.checkpointId} was interrupted (started ${journal.startedAt}); the next start of ralph finishes it. The attempt is kept at ${journal.attemptRef}.`,
    };
  }
  const target = await readSnapshot(ctx, journal.checkpointCommit);
  const start = await readSnapshot(ctx, journal.attemptCommit);
  if (typeof target === 'string' || typeof start === 'string') {
    return {
      ok: false,
      message: `An interrupted rollback to checkpoint ${journal.checkpointId} cannot be finished: ${typeof target === 'string' ? target : start}. The attempt is kept at ${journal.attemptRef}.`,
    };
  }
  const cache = StatCache.load(ralphGitDir(ctx));
  const scope: RefScope = { moves: journal.refMoves ?? [], stash: journal.stash ?? null };
  try {
    const present = await captureRepoState(ctx, cache, [...target.state.files.keys(), ...start.state.files.keys()]);
    const later = changedSince(present, start.state, target.state, journal);
    if (later.length > 0) {
      const now = options.now ?? Date.now();
      const saved = await saveAttempt(ctx, target, present, `state found after the interrupted rollback to ${target.id}`, now, cache);
      clearJournal(ctx);
      return {
        ok: false,
        message:
          `A rollback to checkpoint ${journal.checkpointId} was interrupted (started ${journal.startedAt}), and the project changed after that (${later.join('; ')}). ` +
          `Ralph did not finish it, so none of that later work is undone. The project as found now is saved at ${saved.ref} (files; the refs next to it), ` +
          `the failed attempt at ${journal.attemptRef}. To go back to the checkpoint anyway: ralph --restore ${journal.checkpointId}`,
      };
    }
    const { report, problems } = await applyJournaled(ctx, target, scope, cache, () => undefined, { ref: journal.attemptRef, commit: journal.attemptCommit });
    const files = report.reverted.length > 0 ? ` (${report.reverted.length} file${report.reverted.length === 1 ? '' : 's'} put back)` : '';
    const left = report.refsLeft.length > 0 ? ` Left as they are: ${report.refsLeft.join('; ')}.` : '';
    if (problems.length > 0) {
      return {
        ok: false,
        message: `Finished an interrupted rollback to checkpoint ${journal.checkpointId}, but it is incomplete: ${problems.join('; ')}. The attempt is kept at ${journal.attemptRef}.${left}`,
      };
    }
    return {
      ok: true,
      message: `A rollback to checkpoint ${journal.checkpointId} was interrupted (started ${journal.startedAt}); Ralph finished it now${files}. The attempt is kept at ${journal.attemptRef}; bring a file back with: ${restoreCommandFor(journal.attemptRef)}.${left}`,
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
