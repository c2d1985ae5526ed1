import * as v from 'valibot';
import { githubItemId, isValidId, sanitizeId } from '../../core/queue/queue-ids.js';
import {
  DEFAULT_PRIORITY,
  emptyQueue,
  MAX_PRIORITY,
  MIN_PRIORITY,
  QUEUE_SOURCES,
  QUEUE_STATES,
  QUEUE_VERSION,
  type QueueDocument,
  type QueueItem,
} from '../../core/queue/queue-item.js';
import { priorityFromLabel } from '../../core/queue/queue-priority.js';
import { FOLLOW_STATES } from '../../core/queue/follow/follow-record.js';
import type { RalphDocument } from '../document-store.js';
import { isRecord } from '../../core/guards.js';
import { record } from './lenient.js';

/**
 * .ralph/queue.json. Read strictly: the queue is the user's backlog and the
 * record of what ran, so a damaged file is refused with the field that is
 * wrong (never reset; see queue-store.ts) instead of being read as less than
 * it holds. The original bash Ralph's file (`{"version": "1.0", "queue":
 * [...]}`) is read too and mapped field by field; the next write saves it in
 * this shape.
 */
const whole = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.safeInteger(message), v.minValue(min, message), v.maxValue(max, message));
const optionalText = v.optional(v.string('is not a string'));

const id = v.pipe(v.string('is not a string'), v.check(isValidId, 'is not a queue id (lower-case letters, digits and dashes, at most 40)'));

const itemSchema: v.GenericSchema<unknown, QueueItem> = record(
  {
    id,
    source: v.picklist(QUEUE_SOURCES, `is not one of ${QUEUE_SOURCES.join(', ')}`),
    title: v.string('is not a string'),
    spec: v.string('is not a string'),
    verify: optionalText,
    priority: whole(MIN_PRIORITY, MAX_PRIORITY, `is not a priority from ${MIN_PRIORITY} to ${MAX_PRIORITY}`),
    depends_on: v.array(id, 'is not a list of ids'),
    state: v.picklist(QUEUE_STATES, `is not one of ${QUEUE_STATES.join(', ')}`),
    created_at: v.string('is not a time'),
    started_at: optionalText,
    finished_at: optionalText,
    reason: optionalText,
    branch: optionalText,
    worktree: optionalText,
    owner: v.optional(record({ pid: whole(1, Number.MAX_SAFE_INTEGER, 'is not a process id'), host: v.string('is not a string') }, 'is not an object')),
    github: v.optional(
      record(
        { repo: v.string('is not a string'), number: whole(1, Number.MAX_SAFE_INTEGER, 'is not an issue number'), url: v.string('is not a string') },
        'is not an object',
      ),
    ),
    prd_file: optionalText,
    labels: v.optional(v.array(v.string(), 'is not a list of strings')),
    result: v.optional(
      record(
        {
          exit_reason: optionalText,
          exit_code: v.optional(v.pipe(v.number('is not an integer'), v.integer('is not an integer'))),
          cost: v.optional(v.pipe(v.number('is not a number'), v.finite('is not a number'))),
          cost_estimated: v.optional(v.boolean('is not a boolean')),
          iterations: v.optional(whole(0, Number.MAX_SAFE_INTEGER, 'is not a count')),
          branch: optionalText,
          pr_url: optionalText,
          error: optionalText,
          test_tampering: v.optional(v.array(v.string(), 'is not a list of strings')),
        },
        'is not an object',
      ),
    ),
    follow: v.optional(
      record(
        {
          round: whole(1, 1000, 'is not a round'),
          max_rounds: whole(1, 1000, 'is not a round'),
          pr_number: whole(1, Number.MAX_SAFE_INTEGER, 'is not a pull request number'),
          commit: v.string('is not a string'),
          state: v.picklist(FOLLOW_STATES, `is not one of ${FOLLOW_STATES.join(', ')}`),
          checks: v.array(
            record({ name: v.string('is not a string'), state: v.picklist(['pending', 'success', 'failure'], 'is not a check state') }, 'is not an object'),
            'is not a list',
          ),
          tampering: v.optional(v.array(v.string(), 'is not a list of strings')),
          updated_at: v.string('is not a time'),
        },
        'is not an object',
      ),
    ),
  },
  'is not an object',
);

const issuedCount = v.optional(whole(0, Number.MAX_SAFE_INTEGER, 'is not a count'));

const currentSchema = record(
  {
    version: v.literal(QUEUE_VERSION, `is not ${QUEUE_VERSION}`),
    items: v.array(itemSchema, 'is not a list'),
    issued_ids: v.optional(record({ t: issuedCount, p: issuedCount }, 'is not an object')),
  },
  'the queue is not a JSON object',
);

/** One entry of the original's queue; fields it wrote empty or not at all read as absent. */
const originalEntry = v.looseObject({
  source: v.fallback(v.optional(v.string()), undefined),
  id: v.fallback(v.optional(v.string()), undefined),
  issue_number: v.fallback(v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))), undefined),
  path: v.fallback(v.optional(v.string()), undefined),
  title: v.fallback(v.string(), ''),
  priority: v.fallback(v.string(), ''),
  labels: v.fallback(v.array(v.string()), []),
  dependencies: v.fallback(v.array(v.number()), []),
  status: v.fallback(v.string(), 'pending'),
  added_at: v.fallback(v.string(), ''),
  started_at: v.fallback(v.nullable(v.string()), null),
  completed_at: v.fallback(v.nullable(v.string()), null),
  error_message: v.fallback(v.nullable(v.string()), null),
});

type OriginalEntry = v.InferOutput<typeof originalEntry>;

const ORIGINAL_STATES: Record<string, QueueItem['state']> = {
  pending: 'pending',
  processing: 'running',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/** The original's item in this shape: `github-12` is `gh-12`, `processing` is `running` (recovered as interrupted), `P3` is 3. */
function fromOriginal(entry: OriginalEntry, repository: string): QueueItem {
  const issue = entry.issue_number;
  const github = entry.source === 'github' && issue !== undefined;
  const item: QueueItem = {
    id: github ? githubItemId(issue) : sanitizeId(entry.id ?? entry.path ?? entry.title),
    source: github ? 'github' : entry.source === 'prd' ? 'prd' : 'task',
    title: entry.title,
    spec: github ? `Implement GitHub issue #${issue}: ${entry.title}` : entry.path ? `Implement the requirements in ${entry.path}` : entry.title,
    priority: priorityFromLabel(entry.priority) ?? DEFAULT_PRIORITY,
    depends_on: entry.dependencies.filter((n) => Number.isSafeInteger(n) && n > 0).map(githubItemId),
    state: ORIGINAL_STATES[entry.status] ?? 'pending',
    created_at: entry.added_at,
    labels: entry.labels,
  };
  if (entry.started_at) item.started_at = entry.started_at;
  if (entry.completed_at) item.finished_at = entry.completed_at;
  if (entry.error_message) item.result = { error: entry.error_message };
  if (entry.path) item.prd_file = entry.path;
  if (github && repository !== '') item.github = { repo: repository, number: issue, url: `https://github.com/${repository}/issues/${issue}` };
  return item;
}

const originalSchema = v.pipe(
  record({ queue: v.array(originalEntry, 'is not a list'), repository: v.fallback(v.string(), '') }, 'the queue is not a JSON object'),
  v.transform((doc): QueueDocument => ({ version: QUEUE_VERSION, items: doc.queue.map((entry) => fromOriginal(entry, doc.repository)) })),
);

/** The original's file when it has `queue` and no `items`; ours otherwise (so our errors name our fields). */
export const queueSchema: v.GenericSchema<unknown, QueueDocument> = v.lazy((input) =>
  isRecord(input) && 'queue' in input && !('items' in input) ? originalSchema : currentSchema,
);

export const QUEUE: RalphDocument<QueueDocument> = { path: (p) => p.queue, schema: queueSchema, empty: emptyQueue, version: QUEUE_VERSION };
