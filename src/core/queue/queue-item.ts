import type { QueueFollow } from './follow/follow-record.js';

/**
 * One unit of work in the project's queue (`.ralph/queue.json`): a task typed
 * on the command line, a task of a PRD, or a GitHub issue. The loop that runs
 * an item is given its `spec`; `ralph queue run` records how it ended.
 */
export const QUEUE_SOURCES = ['task', 'prd', 'github'] as const;
export type QueueSource = (typeof QUEUE_SOURCES)[number];

export const QUEUE_STATES = ['pending', 'running', 'completed', 'failed', 'skipped'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** Items nothing will run again: `clear` removes them, dependants read them as settled. */
export const FINISHED_STATES: readonly QueueState[] = ['completed', 'failed', 'skipped'];

/** P0 is the most urgent, P9 the least; an item without a priority label sits in the middle. */
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 9;
export const DEFAULT_PRIORITY = 5;

export interface QueueGithubRef {
  /** owner/name */
  repo: string;
  number: number;
  url: string;
}

/** How the item's loop ended, as `ralph queue run` saw it. */
export interface QueueResult {
  exit_reason?: string;
  exit_code?: number;
  cost?: number;
  /** true when the cost was priced from tokens, not reported by the agent. */
  cost_estimated?: boolean;
  iterations?: number;
  branch?: string;
  pr_url?: string;
  error?: string;
  /** What a follow-up round did to tests to make a check pass (a deleted test file, a skipped test). */
  test_tampering?: string[];
}

/** The process that took the item, so a later run can tell a crashed run from a live one. */
export interface QueueOwner {
  pid: number;
  host: string;
}

export interface QueueItem {
  id: string;
  source: QueueSource;
  title: string;
  /** What the loop is given: the task line, or the fenced issue text. */
  spec: string;
  verify?: string;
  priority: number;
  depends_on: string[];
  state: QueueState;
  /** ISO 8601 times. */
  created_at: string;
  started_at?: string;
  finished_at?: string;
  /** Why the item was skipped or failed before it ran. */
  reason?: string;
  branch?: string;
  /** Relative to the project root. */
  worktree?: string;
  owner?: QueueOwner;
  github?: QueueGithubRef;
  /** The PRD file a `prd` item came from, relative to the project. */
  prd_file?: string;
  labels?: string[];
  result?: QueueResult;
  /** With `--follow-checks`: the pull request's round and checks. */
  follow?: QueueFollow;
}

/** The highest number each sequential id prefix has given out (`t3` → t: 3). */
export interface IssuedIds {
  t?: number;
  p?: number;
}

export interface QueueDocument {
  version: 1;
  items: QueueItem[];
  /**
   * Kept when items are removed or cleared: an id names a branch and a
   * worktree, so a number once given out is never given again.
   */
  issued_ids?: IssuedIds;
}

export const QUEUE_VERSION = 1;

export function emptyQueue(): QueueDocument {
  return { version: QUEUE_VERSION, items: [] };
}

/** Where the item's loop works: its branch and git worktree, named after the id. */
export function itemBranch(id: string): string {
  return `ralph/${id}`;
}

export function itemWorktree(id: string): string {
  return `.ralph/worktrees/${id}`;
}
