import { loadStateFile, isRecord, writeJsonAtomic } from '../state/json-file.js';

/**
 * `.ralph/.checkpoints`: Ralph's own list of the checkpoints it made (spec §8).
 * The stash entries are the real store; this list says which of them are ours
 * and keeps what a stash entry cannot show (loop, creation time, full tree).
 * The checkpoint commits describe themselves too (trailers), so a corrupt list
 * is reset with a warning and rebuilt from the stash.
 */
export interface Checkpoint {
  /** Short, typeable id: `cp<loop>-<base36 time>`; names refs/ralph/attempts/<id>. */
  id: string;
  loop: number;
  /** The stash message: `ralph checkpoint: loop N`. */
  message: string;
  /** ISO 8601. */
  createdAt: string;
  /** Commit HEAD pointed at; null on an unborn branch (no commits yet). */
  head: string | null;
  /** `refs/heads/<name>`, or null when HEAD was detached. */
  branch: string | null;
  /** The index exactly as it was (staged changes). */
  indexTree: string;
  /** The whole work tree: tracked files as on disk plus untracked, non-ignored files. */
  worktreeTree: string;
  /** Tracked files only (the stash's W tree). */
  trackedTree: string;
  /** Untracked files only (the stash's U tree), null when there were none. */
  untrackedTree: string | null;
  /** The stash-style commit (`git stash list` shows it; `git stash show -p --include-untracked` works). */
  commit: string;
}

export interface CheckpointFile {
  version: 1;
  checkpoints: Checkpoint[];
}

const HEX = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function isHex(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

export function normalizeCheckpoint(value: unknown, where = 'checkpoint'): Checkpoint | string {
  if (!isRecord(value)) return `${where} is not an object`;
  const { id, loop, message, createdAt, head, branch, indexTree, worktreeTree, trackedTree, untrackedTree, commit } = value;
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return `${where}.id is not a checkpoint id`;
  if (typeof loop !== 'number' || !Number.isSafeInteger(loop) || loop < 0) return `${where}.loop is not a whole number`;
  if (typeof message !== 'string') return `${where}.message is not text`;
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return `${where}.createdAt is not a date`;
  if (head !== null && !isHex(head)) return `${where}.head is not a commit id or null`;
  if (branch !== null && (typeof branch !== 'string' || !branch.startsWith('refs/'))) return `${where}.branch is not a ref or null`;
  if (!isHex(indexTree) || !isHex(worktreeTree) || !isHex(trackedTree) || !isHex(commit)) return `${where} has a malformed object id`;
  if (untrackedTree !== null && !isHex(untrackedTree)) return `${where}.untrackedTree is not an object id or null`;
  return { id, loop, message, createdAt, head, branch, indexTree, worktreeTree, trackedTree, untrackedTree, commit };
}

export function normalizeCheckpointFile(value: unknown): CheckpointFile | string {
  if (!isRecord(value)) return 'not a JSON object';
  if (value['version'] !== 1) return 'unknown version';
  const list = value['checkpoints'];
  if (!Array.isArray(list)) return 'checkpoints is not a list';
  const checkpoints: Checkpoint[] = [];
  for (const [index, item] of list.entries()) {
    const cp = normalizeCheckpoint(item, `checkpoints[${index}]`);
    if (typeof cp === 'string') return cp;
    checkpoints.push(cp);
  }
  return { version: 1, checkpoints };
}

export function readCheckpointRecords(path: string, warn: (message: string) => void): Checkpoint[] {
  return loadStateFile(path, normalizeCheckpointFile, () => ({ version: 1 as const, checkpoints: [] }), warn).checkpoints;
}

export function writeCheckpointRecords(path: string, checkpoints: readonly Checkpoint[]): void {
  const file: CheckpointFile = { version: 1, checkpoints: [...checkpoints] };
  writeJsonAtomic(path, file);
}
