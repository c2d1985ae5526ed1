import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GitWorkspace } from '../infra/git-workspace.js';
import type { CheckpointPort, Clock } from '../ports.js';
import {
  createCheckpoint,
  dropCheckpoint,
  pruneExcessCheckpoints,
  readAttemptEnd,
  rollbackToCheckpoint,
  type AttemptEnd,
  type Checkpoint,
} from './git-checkpoints.js';

const INDEX_LOCK_WAIT_MS = 2000;
const INDEX_LOCK_POLL_MS = 100;

/**
 * A git command the user runs holds .git/index.lock for a moment; a lock that
 * stays is left by a crashed one, and every rollback would be refused while it
 * is there. Waits briefly, then says what to do.
 */
async function waitForIndexLock(ws: GitWorkspace, clock: Clock): Promise<string | undefined> {
  const info = await ws.repo();
  if (!info) return undefined;
  const lock = join(info.gitDir, 'index.lock');
  for (let waited = 0; existsSync(lock); waited += INDEX_LOCK_POLL_MS) {
    if (waited >= INDEX_LOCK_WAIT_MS) {
      return `${lock} exists: a git command is running or one crashed and left it behind; if no git command is running, delete that file`;
    }
    await clock.sleep(INDEX_LOCK_POLL_MS);
  }
  return undefined;
}

export interface CheckpointPortOptions {
  clock: Clock;
  warn: (message: string) => void;
  /** Runs a rollback so that the process does not exit in its middle (a second Ctrl+C waits for it). */
  protect: <T>(label: string, work: () => Promise<T>) => Promise<T>;
}

/** The loop's checkpoints (the engine's CheckpointPort) over git: see git-checkpoints.ts. */
export function createCheckpointPort(ws: GitWorkspace, options: CheckpointPortOptions): CheckpointPort {
  const { clock, warn, protect } = options;
  const made = new Map<string, Checkpoint>();
  // The refs each attempt left when its agent call ended: a rollback undoes only what the attempt did.
  const ends = new Map<string, AttemptEnd>();
  return {
    async create(loop) {
      const locked = await waitForIndexLock(ws, clock);
      if (locked) return { ok: false, reason: locked };
      const r = await createCheckpoint(ws, { loop, now: clock.now(), warn });
      if (!r.ok) return r;
      made.set(r.checkpoint.id, r.checkpoint);
      return { ok: true, id: r.checkpoint.id };
    },
    async drop(id) {
      const r = await dropCheckpoint(ws, made.get(id) ?? id, { warn });
      if (!r.ok) warn(`could not drop checkpoint ${id}: ${r.reason}`);
      made.delete(id);
      ends.delete(id);
    },
    async attemptEnded(id) {
      const end = await readAttemptEnd(ws).catch(() => null);
      if (end) ends.set(id, end);
    },
    async rollback(id, label) {
      const checkpoint = made.get(id);
      if (!checkpoint) return { ok: false, reason: `checkpoint ${id} is unknown to this run` };
      const attemptEnd = ends.get(id) ?? null;
      const r = await protect('rollback', () => rollbackToCheckpoint(ws, checkpoint, { attemptLabel: label, now: clock.now(), warn, attemptEnd }));
      return r.ok
        ? {
            ok: true,
            restored: r.restored,
            attemptRef: r.attemptRef,
            reverted: r.report.reverted,
            restoreCommand: r.restoreCommand,
            headMoved: r.headMoved,
            refsMoved: r.report.refsMoved,
            refsLeft: r.report.refsLeft,
            notes: r.report.notes,
          }
        : r;
    },
    async prune(keep) {
      const r = await pruneExcessCheckpoints(ws, keep, { warn });
      if (!r.ok) warn(`could not prune checkpoints: ${r.reason}`);
    },
  };
}
