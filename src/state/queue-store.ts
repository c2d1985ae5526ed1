import { lstatSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { relative } from 'node:path';
import lockfile from 'proper-lockfile';
import { recoverInterrupted } from '../core/queue/queue-ops.js';
import type { QueueDocument, QueueOwner } from '../core/queue/queue-item.js';
import { ExitCode, RalphError } from '../errors.js';
import { readDocument, saveDocument } from './document-store.js';
import { QUEUE } from './documents/queue.js';
import { isProcessAlive } from './lock-holder.js';
import type { RalphPaths } from './paths.js';

/**
 * The one way `.ralph/queue.json` is read and changed. Every change is a
 * read-change-write under a lock file beside it (proper-lockfile), so two
 * processes that add or claim items at the same moment never lose one
 * another's update; the write is atomic. Unlike the loop's documents, a
 * damaged queue is never reset: it is the user's backlog, so the file is left
 * exactly as it is and every command refuses it with what is wrong and how
 * to go on.
 */

const LOCK_OPTIONS = { realpath: false, stale: 10_000, retries: { retries: 100, minTimeout: 20, maxTimeout: 200, randomize: true } };

/** This process, as the owner of the items it runs. */
export function currentOwner(): QueueOwner {
  return { pid: process.pid, host: hostname() };
}

/** An owner on another machine cannot be checked from here, so it counts as alive. */
export function isOwnerAlive(owner: QueueOwner): boolean {
  return owner.host !== hostname() || isProcessAlive(owner.pid);
}

function queueName(paths: RalphPaths): string {
  return relative(paths.project, paths.queue);
}

/** The queue as it is on disk (missing: empty). A damaged file throws and stays untouched. */
export function readQueue(paths: RalphPaths): QueueDocument {
  const read = readDocument(paths, QUEUE);
  if (read.kind === 'ok') return read.value;
  if (read.kind === 'missing') return QUEUE.empty(0);
  const name = queueName(paths);
  throw new RalphError(
    `${name} cannot be read: ${read.reason}. It was left as it is.`,
    ExitCode.RuntimeError,
    `Fix the file by hand (it must be {"version": 1, "items": [...]}), or move it aside to start an empty queue: mv ${name} ${name}.bad`,
  );
}

function ensureQueueDir(paths: RalphPaths): void {
  const st = lstatSync(paths.dir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink() || (st && !st.isDirectory())) {
    throw new RalphError(
      `${relative(paths.project, paths.dir)} is not a directory of this project (a symbolic link or a file); the queue is not written through it.`,
      ExitCode.RuntimeError,
      'Remove it, then run ralph-enable or ralph-setup to create .ralph/.',
    );
  }
  if (!st) mkdirSync(paths.dir, { recursive: true });
}

export interface QueueUpdate<T> {
  doc: QueueDocument;
  value: T;
}

export interface UpdateQueueOptions {
  /** Told which items of a crashed run went back to pending. */
  onRecovered?: (ids: string[]) => void;
}

/**
 * Applies `change` to the queue under its lock and writes the result. Items a
 * dead run left `running` are put back to pending first. When `change`
 * throws, nothing is written.
 */
export async function updateQueue<T>(paths: RalphPaths, change: (doc: QueueDocument) => QueueUpdate<T>, options: UpdateQueueOptions = {}): Promise<T> {
  ensureQueueDir(paths);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(paths.queue, { ...LOCK_OPTIONS, lockfilePath: `${paths.queue}.lock` });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new RalphError(`${queueName(paths)} is locked by another Ralph command that is still changing it.`, ExitCode.RuntimeError, 'Try again in a moment.');
  }
  try {
    const recovery = recoverInterrupted(readQueue(paths), isOwnerAlive);
    if (recovery.recovered.length > 0) options.onRecovered?.(recovery.recovered);
    const next = change(recovery.doc);
    saveDocument(paths, QUEUE, next.doc);
    return next.value;
  } finally {
    await release().catch(() => undefined);
  }
}
