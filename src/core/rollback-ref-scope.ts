/**
 * Which refs a rollback may move. Refs are shared by every worktree of a
 * repository, every queue loop and the user; a checkpoint belongs to one loop
 * in one worktree. A rollback therefore undoes only what the attempt did:
 *
 * - the branch checked out in the loop's own worktree (at the checkpoint or
 *   now) goes back, unless it holds commits that changed nothing in the
 *   project's folder (someone else's, in a monorepo);
 * - any other ref goes back only when it changed between the checkpoint and
 *   the end of the attempt, still has the value the attempt left, and its new
 *   value comes from this worktree: a commit its HEAD held during the attempt
 *   or one they contain, and not one another worktree's HEAD held then (a
 *   commit, branch, tag or stash made there is someone else's). A
 *   remote-tracking ref (a fetch) and a branch checked out in another
 *   worktree are never moved;
 * - a ref that was deleted during the attempt comes back when the value it had
 *   comes from this worktree in the same sense (a branch of someone else's
 *   that went is named, with the command that brings it back).
 *
 * Everything else is left as it is and named, with the command that gives it
 * the checkpoint's value. Pure: the caller reads the refs and the worktrees.
 */

export interface ScopedRef {
  name: string;
  oid: string;
  /** The commit it names (a tag's target), '' when none. */
  commit: string;
}

export interface RefScopeFacts {
  /** Plain refs (no symbolic ones, no refs/stash) at the checkpoint. */
  checkpoint: readonly ScopedRef[];
  /** The same at the end of the attempt; null when unknown (the present stands in). */
  attemptEnd: readonly ScopedRef[] | null;
  present: readonly ScopedRef[];
  /** Branches this worktree's HEAD named at the checkpoint or names now. */
  ownBranches: ReadonlySet<string>;
  /** Own branches holding commits that changed nothing in the project's folder. */
  foreignCommitsOn: ReadonlySet<string>;
  /** Branches checked out (or being rebased or bisected) in other worktrees. */
  checkedOutElsewhere: ReadonlySet<string>;
  /** New values (commits) of changed refs that do not come from this worktree (see above). */
  notTheAttempts: ReadonlySet<string>;
}

/** The commit a changed ref now names, to be judged: does it come from this worktree? */
export function judgedCommit(ref: ScopedRef): string {
  return ref.commit || ref.oid;
}

/** The new values that decide whose a change is: refs other than `own` changed before the attempt ended and unchanged since. */
export function commitsToJudge(f: Omit<RefScopeFacts, 'notTheAttempts' | 'foreignCommitsOn'>): string[] {
  const c = byName(f.checkpoint);
  const p = byName(f.present);
  const e = f.attemptEnd ? byName(f.attemptEnd) : p;
  const out = new Set<string>();
  const skip = (name: string): boolean => f.ownBranches.has(name) || name.startsWith('refs/remotes/') || f.checkedOutElsewhere.has(name);
  for (const [name, end] of e) {
    const now = p.get(name);
    if (!skip(name) && now?.oid === end.oid && c.get(name)?.oid !== end.oid) out.add(judgedCommit(end));
  }
  // Deleted during the attempt and still gone: whose was it?
  for (const [name, was] of c) if (!skip(name) && !e.has(name) && !p.has(name)) out.add(judgedCommit(was));
  return [...out];
}

/** A compare-and-swap: `from` is the value the ref must still have (null: absent), `to` the checkpoint's (null: delete). */
export interface RefMove {
  name: string;
  from: string | null;
  to: string | null;
}

export type LeftWhy = 'remote' | 'checked-out-elsewhere' | 'changed-since' | 'someone-else' | 'foreign-commits';

export interface RefLeft {
  name: string;
  /** The checkpoint's value (null: the ref did not exist). */
  checkpoint: string | null;
  /** Its value now (null: gone). */
  now: string | null;
  why: LeftWhy;
}

export interface RefPlan {
  moves: RefMove[];
  left: RefLeft[];
}

function byName(refs: readonly ScopedRef[]): Map<string, ScopedRef> {
  return new Map(refs.map((r) => [r.name, r] as const));
}

export function planRefMoves(f: RefScopeFacts): RefPlan {
  const c = byName(f.checkpoint);
  const p = byName(f.present);
  const e = f.attemptEnd ? byName(f.attemptEnd) : p;
  const names = [...new Set([...c.keys(), ...e.keys(), ...p.keys()])].sort();
  const plan: RefPlan = { moves: [], left: [] };
  for (const name of names) {
    const then = c.get(name)?.oid ?? null;
    const now = p.get(name)?.oid ?? null;
    if (now === then) continue;
    const end = e.get(name);
    const leave = (why: LeftWhy): void => void plan.left.push({ name, checkpoint: then, now, why });
    if (name.startsWith('refs/remotes/')) leave('remote');
    else if (f.checkedOutElsewhere.has(name)) leave('checked-out-elsewhere');
    else if ((end?.oid ?? null) !== now) leave('changed-since');
    else if (f.ownBranches.has(name)) {
      if (f.foreignCommitsOn.has(name)) leave('foreign-commits');
      else plan.moves.push({ name, from: now, to: then });
    } else if (end && f.notTheAttempts.has(judgedCommit(end))) leave('someone-else');
    else if (!end && f.notTheAttempts.has(judgedCommit(c.get(name) as ScopedRef))) leave('someone-else');
    else plan.moves.push({ name, from: now, to: then });
  }
  return plan;
}

/** Only the moves whose ref still has the value they expect; the others are left (someone changed the ref meanwhile). */
export function movesStillValid(plan: RefPlan, present: ReadonlyMap<string, string>): RefPlan {
  const out: RefPlan = { moves: [], left: [...plan.left] };
  for (const move of plan.moves) {
    const now = present.get(move.name) ?? null;
    if (now === move.to) continue;
    if (now === move.from) out.moves.push(move);
    else out.left.push({ name: move.name, checkpoint: move.to, now, why: 'changed-since' });
  }
  return out;
}

// ------------------------------------------------------------------ stash

export interface StashEntry {
  /** The entry's commit. */
  oid: string;
  /** Its reflog line, as read (latin1, no newline). */
  line: string;
  /** The commit its stash was made on (its first parent); '' when unknown. */
  base: string;
}

export interface StashPlan {
  /** The entries after the rollback, oldest first. */
  entries: StashEntry[];
  /** Entries the attempt made, taken away. */
  removed: string[];
  /** Entries the attempt dropped, put back. */
  restored: string[];
  /** Entries the attempt made that may be someone else's: kept. */
  kept: string[];
  /** Entries dropped during the attempt that were made on someone else's commit: not put back (named). */
  droppedLeft: string[];
}

/**
 * The stash, entry by entry (by commit id): the attempt's own new entries go
 * (made on a commit of this worktree: their base is not in `notTheAttempts`),
 * the entries it dropped come back, the rest stays.
 */
export function planStash(
  checkpoint: readonly StashEntry[],
  attemptEnd: readonly StashEntry[] | null,
  present: readonly StashEntry[],
  notTheAttempts: ReadonlySet<string>,
): StashPlan {
  const ids = (list: readonly StashEntry[]): Set<string> => new Set(list.map((s) => s.oid));
  const atCheckpoint = ids(checkpoint);
  const atEnd = ids(attemptEnd ?? present);
  const now = ids(present);
  const plan: StashPlan = { entries: [], removed: [], restored: [], kept: [], droppedLeft: [] };
  for (const entry of checkpoint) {
    if (now.has(entry.oid)) plan.entries.push(entry);
    else if (atEnd.has(entry.oid)) {
      // Dropped after the attempt ended: someone else's doing, it stays dropped.
    } else if (entry.base === '' || notTheAttempts.has(entry.base)) plan.droppedLeft.push(entry.oid);
    else {
      // Dropped during the attempt and not put back since.
      plan.entries.push(entry);
      plan.restored.push(entry.oid);
    }
  }
  for (const entry of present) {
    if (atCheckpoint.has(entry.oid)) continue;
    const attempts = atEnd.has(entry.oid) && entry.base !== '' && !notTheAttempts.has(entry.base);
    if (attempts) plan.removed.push(entry.oid);
    else {
      if (atEnd.has(entry.oid)) plan.kept.push(entry.oid);
      plan.entries.push(entry);
    }
  }
  return plan;
}

/** The reflog text of `entries`, each line's old value chained to the entry before it (as git writes it). */
export function stashLogText(entries: readonly StashEntry[], zero: string): string {
  let previous = zero;
  const lines = entries.map((entry) => {
    const parts = entry.line.split(' ');
    const line = parts[0] === previous ? entry.line : [previous, ...parts.slice(1)].join(' ');
    previous = entry.oid;
    return line;
  });
  return lines.map((l) => `${l}\n`).join('');
}

// ------------------------------------------------------------------ words

function short(oid: string | null): string {
  return oid ? oid.slice(0, 12) : 'none';
}

const WHY: Record<LeftWhy, string> = {
  remote: 'a remote-tracking ref (a fetch moves it)',
  'checked-out-elsewhere': 'checked out in another worktree',
  'changed-since': 'changed after the attempt ended',
  'someone-else': 'it points at a commit that does not come from this worktree during the attempt',
  'foreign-commits': 'it holds commits outside the project folder, made by someone else',
};

/** The command that gives a left ref its checkpoint value. */
export function restoreRefCommand(left: RefLeft): string {
  return left.checkpoint === null ? `git update-ref -d ${left.name}` : `git update-ref ${left.name} ${left.checkpoint}`;
}

/** One line per ref the rollback left, with why and how to give it the checkpoint's value. */
export function describeLeftRefs(left: readonly RefLeft[]): string[] {
  return left.map((l) => `${l.name} left at ${short(l.now)} (${WHY[l.why]}); the checkpoint had ${short(l.checkpoint)}: ${restoreRefCommand(l)}`);
}

/** Lines for the stash entries a rollback left as they are, with the command that changes them. */
export function describeLeftStash(plan: Pick<StashPlan, 'kept' | 'droppedLeft'>): string[] {
  return [
    ...plan.droppedLeft.map(
      (oid) =>
        `stash entry ${short(oid)} was dropped during the attempt and is not put back (it was made on a commit that is not this worktree's): git stash store -m "put back" ${oid}`,
    ),
    ...plan.kept.map(
      (oid) => `stash entry ${short(oid)} made during the attempt is kept (it was made on a commit another worktree was on); git stash list shows it`,
    ),
  ];
}

/** One line per ref the rollback moved. */
export function describeMovedRefs(moves: readonly RefMove[]): string[] {
  return moves.map(
    (m) =>
      `${m.name}: ${m.to === null ? `removed (was ${short(m.from)})` : m.from === null ? `put back at ${short(m.to)}` : `${short(m.from)} → ${short(m.to)}`}`,
  );
}
