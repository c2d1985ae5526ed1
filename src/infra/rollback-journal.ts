import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ralphGitDir, tempName, type RepoContext } from './git-plumbing.js';

/**
 * The rollback journal: written (and flushed to disk) after the attempt is
 * saved and before the first change, removed when the rollback is complete.
 * Finding it at a start means a rollback was cut short (a kill -9, a power
 * cut): the state it was heading for is recorded, so it is finished then.
 */
export interface RollbackJournal {
  version: 1;
  checkpointId: string;
  checkpointCommit: string;
  attemptRef: string;
  attemptCommit: string;
  startedAt: string;
  pid: number;
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
      typeof value.startedAt === 'string'
    ) {
      return {
        version: 1,
        checkpointId: value.checkpointId,
        checkpointCommit: value.checkpointCommit,
        attemptRef: value.attemptRef,
        attemptCommit: value.attemptCommit,
        startedAt: value.startedAt,
        pid: Number(value.pid) || 0,
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
