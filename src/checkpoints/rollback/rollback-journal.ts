import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RefMove } from '../../core/rollback-ref-scope.js';
import { ralphGitDir, tempName, type RepoContext } from '../git/git-plumbing.js';
import type { StashChange } from './rollback-scope.js';

/**
 * The rollback journal: written (and flushed to disk) after the attempt is
 * saved and before the first change, removed when the rollback is complete.
 * Finding it at a start means a rollback was cut short (a kill -9, a power
 * cut). It names the state the rollback started from (the saved attempt's
 * commit) and the one it was heading for (the checkpoint, and the ref moves
 * and stash it planned), so the next start can tell whether anything but the
 * rollback changed the project since.
 */
export interface RollbackJournal {
  version: 1;
  checkpointId: string;
  checkpointCommit: string;
  attemptRef: string;
  attemptCommit: string;
  startedAt: string;
  pid: number;
  /** The ref moves planned (compare-and-swap); absent in journals of older versions. */
  refMoves?: RefMove[];
  stash?: StashChange | null;
}

function journalPath(ctx: RepoContext): string {
  return join(ralphGitDir(ctx), 'rollback-journal.json');
}

export function writeJournal(ctx: RepoContext, journal: RollbackJournal): void {
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, tempName('journal'));
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(journal, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, journalPath(ctx));
}

const HEX = /^[0-9a-f]{40,64}$/;

const oidOrNull = (v: unknown): boolean => v === null || (typeof v === 'string' && HEX.test(v));

function isMoves(value: unknown): value is RefMove[] {
  return (
    Array.isArray(value) &&
    value.every(
      (m: Partial<RefMove> | null) =>
        m !== null && typeof m === 'object' && typeof m.name === 'string' && m.name.startsWith('refs/') && oidOrNull(m.from) && oidOrNull(m.to),
    )
  );
}

function isStash(value: unknown): value is StashChange | null | undefined {
  if (value === null || value === undefined) return true;
  const s = value as Partial<StashChange>;
  return typeof s === 'object' && oidOrNull(s.from) && oidOrNull(s.to) && (s.log === null || typeof s.log === 'string');
}

/** The journal of an unfinished rollback; null when there is none. A damaged journal is a string saying so. */
export function readJournal(ctx: RepoContext): RollbackJournal | null | string {
  let text: string;
  try {
    text = readFileSync(journalPath(ctx), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<RollbackJournal>;
    if (
      value.version === 1 &&
      typeof value.checkpointId === 'string' &&
      typeof value.checkpointCommit === 'string' &&
      HEX.test(value.checkpointCommit) &&
      typeof value.attemptRef === 'string' &&
      value.attemptRef.startsWith('refs/ralph/attempts/') &&
      typeof value.attemptCommit === 'string' &&
      HEX.test(value.attemptCommit) &&
      typeof value.startedAt === 'string' &&
      (value.refMoves === undefined || isMoves(value.refMoves)) &&
      isStash(value.stash)
    ) {
      return {
        version: 1,
        checkpointId: value.checkpointId,
        checkpointCommit: value.checkpointCommit,
        attemptRef: value.attemptRef,
        attemptCommit: value.attemptCommit,
        startedAt: value.startedAt,
        pid: Number(value.pid) || 0,
        ...(value.refMoves ? { refMoves: value.refMoves } : {}),
        ...(value.stash ? { stash: value.stash } : {}),
      };
    }
  } catch {
    // Fall through: damaged.
  }
  return `the rollback journal ${journalPath(ctx)} is damaged`;
}

export function clearJournal(ctx: RepoContext): void {
  rmSync(journalPath(ctx), { force: true });
}
