import {
  commitsToJudge,
  planRefMoves,
  planStash,
  stashLogText,
  type RefLeft,
  type RefMove,
  type ScopedRef,
  type StashEntry,
  type StashPlan,
} from '../../core/rollback-ref-scope.js';
import { gitText, runGit, type RepoContext } from '../git/git-plumbing.js';
import type { RefEntry, RepoState } from '../capture/repo-state.js';
import { headsSince, readOtherWorktrees } from './worktree-facts.js';

/**
 * Reads what a rollback needs to know to leave other people's refs alone and
 * plans the ref changes it makes (core/rollback-ref-scope.ts decides).
 */

/** The refs and stash at the end of an attempt (after the agent call, before the verify command). */
export interface AttemptEnd {
  refs: readonly RefEntry[];
  stashLog: Buffer | null;
}

/** How the stash changes: refs/stash from `from` to `to` (compare-and-swap), then its reflog becomes `log`. */
export interface StashChange {
  from: string | null;
  to: string | null;
  /** The reflog's text (latin1); null: no stash at all. */
  log: string | null;
}

export interface ScopePlan {
  moves: RefMove[];
  left: RefLeft[];
  stash: StashChange | null;
  stashPlan: StashPlan | null;
}

const HEX = /^[0-9a-f]{40,64}$/;

function scoped(refs: readonly RefEntry[], only: ReadonlySet<string> | null): ScopedRef[] {
  return refs
    .filter((r) => !r.symref && r.name !== 'refs/stash' && (only === null || only.has(r.name)))
    .map((r) => ({ name: r.name, oid: r.oid, commit: r.commit }));
}

function entriesOf(log: Buffer | null, bases: ReadonlyMap<string, string>): StashEntry[] {
  if (!log) return [];
  return log
    .toString('latin1')
    .split('\n')
    .filter((line) => HEX.test(line.split(' ')[1] ?? ''))
    .map((line) => {
      const oid = line.split(' ')[1] as string;
      return { oid, line, base: bases.get(oid) ?? '' };
    });
}

/** The commit each stash entry was made on (its first parent), for the entries given. */
async function stashBases(ctx: RepoContext, oids: readonly string[]): Promise<Map<string, string>> {
  const bases = new Map<string, string>();
  if (oids.length === 0) return bases;
  const r = await runGit(['rev-list', '--no-walk=unsorted', '--parents', ...oids], { cwd: ctx.root });
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid = '', first = ''] = line.split(' ');
    if (HEX.test(oid)) bases.set(oid, first);
  }
  return bases;
}

/**
 * Of `candidates`, the commits that do not come from this worktree during the
 * attempt: not contained in any commit this worktree's HEAD held (`tips`), or
 * contained in one another worktree's HEAD held then (a commit both share, like
 * the one they started from, could be either's: it is not claimed). Up to two
 * git calls per candidate, only for refs that changed.
 */
async function notFromHere(ctx: RepoContext, candidates: Iterable<string>, tips: readonly string[], otherHeads: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const commit of new Set(candidates)) {
    if (otherHeads.has(commit) || !(await containedIn(ctx, commit, tips)) || (await containedIn(ctx, commit, [...otherHeads]))) out.add(commit);
  }
  return out;
}

/** Whether `commit` is one of `tips` or an ancestor of one. */
async function containedIn(ctx: RepoContext, commit: string, tips: readonly string[]): Promise<boolean> {
  if (tips.length === 0) return false;
  if (tips.includes(commit)) return true;
  const r = await runGit(['rev-list', '--count', commit, '--not', ...tips, '--'], { cwd: ctx.root });
  return r.code === 0 && r.stdout.toString('utf8').trim() === '0';
}

function headCommit(state: RepoState): string | null {
  const branch = branchOf(state.head);
  if (branch === null) return HEX.test(state.head) ? state.head : null;
  const ref = state.refs?.find((r) => r.name === branch);
  return ref ? ref.commit || ref.oid : null;
}

function branchOf(head: string): string | null {
  return head.startsWith('ref: ') ? head.slice(5) : null;
}

/** Own branches that hold, since the checkpoint, a commit that changed nothing in the project's folder (monorepo only). */
async function foreignCommitsOn(
  ctx: RepoContext,
  branches: Iterable<string>,
  checkpoint: readonly RefEntry[],
  present: readonly RefEntry[],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (!ctx.prefix) return found;
  for (const branch of branches) {
    const from = checkpoint.find((r) => r.name === branch)?.oid;
    const to = present.find((r) => r.name === branch)?.oid;
    if (!from || !to || from === to) continue;
    const range = [to, `^${from}`];
    const all = (await gitText(['rev-list', '--no-merges', ...range], { cwd: ctx.root })).split('\n').filter(Boolean);
    const inProject = new Set(
      (await gitText(['rev-list', '--no-merges', ...range, '--', `:(top)${ctx.prefix}`], { cwd: ctx.root })).split('\n').filter(Boolean),
    );
    if (all.some((c) => !inProject.has(c))) found.add(branch);
  }
  return found;
}

/**
 * What the rollback to `target` does to refs and the stash, given the present
 * state and (when known) the attempt's end. `since`: when the checkpoint was
 * made (epoch ms).
 */
export async function planRollbackScope(ctx: RepoContext, target: RepoState, present: RepoState, end: AttemptEnd | null, since: number): Promise<ScopePlan> {
  if (target.refs === null) return { moves: [], left: [], stash: null, stashPlan: null };
  const presentRefs = present.refs ?? [];
  // A checkpoint of an older version recorded only some refs: only those are looked at, and not the stash.
  const only = target.refsComplete ? null : new Set(target.refs.map((r) => r.name));
  const values = new Map(presentRefs.map((r) => [r.name, r.commit || r.oid] as const));
  const others = readOtherWorktrees(ctx, (name) => values.get(name), Math.floor(since / 1000) - 1);
  const own = new Set([branchOf(target.head), branchOf(present.head)].filter((b): b is string => b !== null));
  const sinceSeconds = Math.floor(since / 1000) - 1;
  const tips = [...new Set([headCommit(target), headCommit(present), ...headsSince(ctx.gitDir, sinceSeconds)].filter((c): c is string => c !== null))];
  const facts = {
    checkpoint: scoped(target.refs, only),
    attemptEnd: end ? scoped(end.refs, only) : null,
    present: scoped(presentRefs, only),
    ownBranches: own,
    checkedOutElsewhere: others.checkedOut,
  };
  const plan = planRefMoves({
    ...facts,
    foreignCommitsOn: await foreignCommitsOn(ctx, own, target.refs, presentRefs),
    notTheAttempts: await notFromHere(ctx, commitsToJudge(facts), tips, others.heads),
  });
  if (!target.refsComplete) return { ...plan, stash: null, stashPlan: null };

  const logs = [target.stashLog, present.stashLog, end?.stashLog ?? null];
  const ids = logs.map((log) => entriesOf(log, new Map()).map((s) => s.oid));
  const [atCheckpoint = [], now = [], atEnd = []] = ids;
  // Only the entries that came or went need their base commit.
  const changed = [...new Set([...atCheckpoint, ...now, ...atEnd])].filter(
    (o) => !(atCheckpoint.includes(o) && now.includes(o) && (end === null || atEnd.includes(o))),
  );
  const bases = await stashBases(ctx, changed);
  const checkpointEntries = entriesOf(target.stashLog, bases);
  const presentEntries = entriesOf(present.stashLog, bases);
  const notHere = await notFromHere(ctx, bases.values(), tips, others.heads);
  const stashPlan = planStash(checkpointEntries, end ? entriesOf(end.stashLog, bases) : null, presentEntries, notHere);
  const sameAsCheckpoint = stashPlan.entries.map((s) => s.oid).join(' ') === checkpointEntries.map((s) => s.oid).join(' ');
  const zero = '0'.repeat(checkpointEntries[0]?.oid.length ?? presentEntries[0]?.oid.length ?? 40);
  // The checkpoint's own reflog, byte for byte, when the entries are the same.
  const log = sameAsCheckpoint ? (target.stashLog?.toString('latin1') ?? null) : stashPlan.entries.length > 0 ? stashLogText(stashPlan.entries, zero) : null;
  const presentLog = present.stashLog?.toString('latin1') ?? null;
  const from = presentRefs.find((r) => r.name === 'refs/stash')?.oid ?? null;
  const to = stashPlan.entries[stashPlan.entries.length - 1]?.oid ?? null;
  const stash = log === presentLog && from === to ? null : { from, to, log };
  return { ...plan, stash, stashPlan };
}
