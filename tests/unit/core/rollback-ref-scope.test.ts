import { describe, expect, it } from 'vitest';
import {
  commitsToJudge,
  describeLeftRefs,
  movesStillValid,
  planRefMoves,
  planStash,
  stashLogText,
  type RefScopeFacts,
  type ScopedRef,
  type StashEntry,
} from '../../../src/core/rollback-ref-scope.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const U = 'd'.repeat(40);
const Z = '0'.repeat(40);

const ref = (name: string, oid: string): ScopedRef => ({ name, oid, commit: oid });

function facts(over: Partial<RefScopeFacts>): RefScopeFacts {
  return {
    checkpoint: [],
    attemptEnd: null,
    present: [],
    ownBranches: new Set(['refs/heads/main']),
    foreignCommitsOn: new Set(),
    checkedOutElsewhere: new Set(),
    notTheAttempts: new Set(),
    ...over,
  };
}

describe('which refs a rollback moves', () => {
  it.each<[string, Partial<RefScopeFacts>, { moves: string[]; left: string[] }]>([
    [
      'own branch moved by the attempt: back',
      { checkpoint: [ref('refs/heads/main', A)], attemptEnd: [ref('refs/heads/main', B)], present: [ref('refs/heads/main', B)] },
      { moves: ['refs/heads/main'], left: [] },
    ],
    [
      'own branch with commits outside the project (monorepo): left',
      { checkpoint: [ref('refs/heads/main', A)], present: [ref('refs/heads/main', U)], foreignCommitsOn: new Set(['refs/heads/main']) },
      { moves: [], left: ['refs/heads/main foreign-commits'] },
    ],
    [
      'a branch checked out in another worktree: left',
      { checkpoint: [ref('refs/heads/other', A)], present: [ref('refs/heads/other', U)], checkedOutElsewhere: new Set(['refs/heads/other']) },
      { moves: [], left: ['refs/heads/other checked-out-elsewhere'] },
    ],
    [
      'a remote-tracking ref (fetch): left',
      { checkpoint: [ref('refs/remotes/origin/main', A)], present: [ref('refs/remotes/origin/main', U)] },
      { moves: [], left: ['refs/remotes/origin/main remote'] },
    ],
    ['a tag the attempt made: removed', { present: [ref('refs/tags/t', B)] }, { moves: ['refs/tags/t'], left: [] }],
    [
      'a tag made on a commit that does not come from this worktree: left',
      { present: [ref('refs/tags/usertag', U)], notTheAttempts: new Set([U]) },
      { moves: [], left: ['refs/tags/usertag someone-else'] },
    ],
    [
      'a ref changed after the attempt ended: left',
      { checkpoint: [ref('refs/tags/v1', A)], attemptEnd: [ref('refs/tags/v1', B)], present: [ref('refs/tags/v1', C)] },
      { moves: [], left: ['refs/tags/v1 changed-since'] },
    ],
    [
      'a branch deleted during the attempt: back',
      { checkpoint: [ref('refs/heads/feature', A)], attemptEnd: [], present: [] },
      { moves: ['refs/heads/feature'], left: [] },
    ],
    [
      "someone else's branch deleted during the attempt: named, not put back",
      { checkpoint: [ref('refs/heads/userbr', U)], attemptEnd: [], present: [], notTheAttempts: new Set([U]) },
      { moves: [], left: ['refs/heads/userbr someone-else'] },
    ],
    [
      'a branch deleted during the attempt and made again since: left',
      { checkpoint: [ref('refs/heads/feature', A)], attemptEnd: [], present: [ref('refs/heads/feature', U)] },
      { moves: [], left: ['refs/heads/feature changed-since'] },
    ],
  ])('%s', (_name, over, want) => {
    const plan = planRefMoves(facts(over));
    expect({ moves: plan.moves.map((m) => m.name), left: plan.left.map((l) => `${l.name} ${l.why}`) }).toEqual(want);
  });

  it('judges only the new values of refs that changed during the attempt and stayed so', () => {
    const f = facts({
      checkpoint: [ref('refs/tags/same', A), ref('refs/heads/main', A)],
      attemptEnd: [ref('refs/tags/same', A), ref('refs/tags/new', B), ref('refs/heads/main', C), ref('refs/tags/later', C)],
      present: [ref('refs/tags/same', A), ref('refs/tags/new', B), ref('refs/heads/main', C), ref('refs/tags/later', U)],
    });
    expect(commitsToJudge(f)).toEqual([B]);
  });

  it('a move whose ref changed since it was planned is dropped and named', () => {
    const plan = movesStillValid(
      {
        moves: [
          { name: 'refs/tags/a', from: B, to: A },
          { name: 'refs/tags/b', from: B, to: null },
          { name: 'refs/tags/c', from: B, to: A },
        ],
        left: [],
      },
      new Map([
        ['refs/tags/a', B],
        ['refs/tags/b', U],
        ['refs/tags/c', A],
      ]),
    );
    expect(plan.moves.map((m) => m.name)).toEqual(['refs/tags/a']);
    expect(plan.left).toEqual([{ name: 'refs/tags/b', checkpoint: null, now: U, why: 'changed-since' }]);
  });

  it('names each ref left with the command that gives it the checkpoint value', () => {
    expect(describeLeftRefs([{ name: 'refs/heads/main', checkpoint: A, now: U, why: 'checked-out-elsewhere' }])).toEqual([
      `refs/heads/main left at ${U.slice(0, 12)} (checked out in another worktree); the checkpoint had ${A.slice(0, 12)}: git update-ref refs/heads/main ${A}`,
    ]);
    expect(describeLeftRefs([{ name: 'refs/tags/x', checkpoint: null, now: U, why: 'someone-else' }])[0]).toMatch(/: git update-ref -d refs\/tags\/x$/);
  });
});

describe('the stash, entry by entry', () => {
  const entry = (oid: string, base: string, previous = Z): StashEntry => ({ oid, base, line: `${previous} ${oid} U <u@x> 1 +0000\tOn main: ${oid[0]}` });

  it("takes the attempt's entry away, puts back what it dropped, keeps someone else's", () => {
    const older = entry(A, C);
    const dropped = entry(B, C, A);
    const attempts = entry(C, C);
    const users = entry(U, U);
    const plan = planStash([older, dropped], [older, attempts, users], [older, attempts, users], new Set([U]));
    expect(plan.entries.map((e) => e.oid)).toEqual([A, B, U]);
    expect(plan.removed).toEqual([C]);
    expect(plan.restored).toEqual([B]);
    expect(plan.kept).toEqual([U]);
    expect(plan.droppedLeft).toEqual([]);
    const log = stashLogText(plan.entries, Z).split('\n');
    expect(log[2]?.startsWith(`${B} ${U} `)).toBe(true);
  });

  it("an entry made on someone else's commit and dropped during the attempt is named, not put back", () => {
    const users = entry(U, U);
    const plan = planStash([users], [], [], new Set([U]));
    expect(plan.entries).toEqual([]);
    expect(plan.droppedLeft).toEqual([U]);
  });

  it('an entry dropped after the attempt ended stays dropped', () => {
    const a = entry(A, C);
    expect(planStash([a], [a], [], new Set()).entries).toEqual([]);
  });
});
