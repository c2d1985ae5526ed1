import * as v from 'valibot';
import { record } from './lenient.js';

/**
 * A checkpoint as the rest of Ralph keeps and shows it: a name for a snapshot
 * commit under `refs/ralph/checkpoints/<id>`. The commit describes itself
 * (trailers and its data parent); this record is what a gate file keeps of
 * it. Records written by older versions carry more fields; they are dropped.
 */
const HEX = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const commitId = (message: string) => v.pipe(v.string(message), v.regex(HEX, message));

export const checkpointSchema = record(
  {
    /** Short, typeable id: `cp<loop>-<base36 time>`; names refs/ralph/checkpoints/<id>. */
    id: v.pipe(v.string('is not a checkpoint id'), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'is not a checkpoint id')),
    loop: v.pipe(v.number('is not a whole number'), v.safeInteger('is not a whole number'), v.minValue(0, 'is not a whole number')),
    /** `ralph checkpoint: loop N`. */
    message: v.string('is not text'),
    /** ISO 8601. */
    createdAt: v.pipe(
      v.string('is not a date'),
      v.check((text) => !Number.isNaN(Date.parse(text)), 'is not a date'),
    ),
    /** Commit HEAD pointed at; null on an unborn branch (no commits yet). */
    head: v.nullable(commitId('is not a commit id or null')),
    /** `refs/heads/<name>`, or null when HEAD was detached. */
    branch: v.nullable(v.pipe(v.string('is not a ref or null'), v.startsWith('refs/', 'is not a ref or null'))),
    /** The snapshot commit. */
    commit: commitId('is a malformed object id'),
  },
  'is not an object',
);

export type Checkpoint = v.InferOutput<typeof checkpointSchema>;
