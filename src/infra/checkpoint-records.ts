import { isRecord } from '../state/json-file.js';

/**
 * A checkpoint as the rest of Ralph sees it: a name for a snapshot commit under
 * `refs/ralph/checkpoints/<id>`. The commit describes itself (trailers and its
 * data parent), so this is only what callers keep and show.
 */
export interface Checkpoint {
  /** Short, typeable id: `cp<loop>-<base36 time>`; names refs/ralph/checkpoints/<id>. */
  id: string;
  loop: number;
  /** `ralph checkpoint: loop N`. */
  message: string;
  /** ISO 8601. */
  createdAt: string;
  /** Commit HEAD pointed at; null on an unborn branch (no commits yet). */
  head: string | null;
  /** `refs/heads/<name>`, or null when HEAD was detached. */
  branch: string | null;
  /** The snapshot commit. */
  commit: string;
}

const HEX = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function isHex(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

/** Narrows a stored checkpoint (records written by older versions carry more fields; they are ignored). */
export function normalizeCheckpoint(value: unknown, where = 'checkpoint'): Checkpoint | string {
  if (!isRecord(value)) return `${where} is not an object`;
  const { id, loop, message, createdAt, head, branch, commit } = value;
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return `${where}.id is not a checkpoint id`;
  if (typeof loop !== 'number' || !Number.isSafeInteger(loop) || loop < 0) return `${where}.loop is not a whole number`;
  if (typeof message !== 'string') return `${where}.message is not text`;
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return `${where}.createdAt is not a date`;
  if (head !== null && !isHex(head)) return `${where}.head is not a commit id or null`;
  if (branch !== null && (typeof branch !== 'string' || !branch.startsWith('refs/'))) return `${where}.branch is not a ref or null`;
  if (!isHex(commit)) return `${where} has a malformed object id`;
  return { id, loop, message, createdAt, head, branch, commit };
}
