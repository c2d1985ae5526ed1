import * as v from 'valibot';
import { finite, finiteOrNull, neutralValue, nonEmptyTextOrNull, record, text } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * progress.json: what the agent is doing right now, rewritten while it runs
 * and read by the monitor at the same time. The original wrote only the first
 * five fields.
 */
export const progressSchema = record(
  {
    status: text('idle'),
    indicator: text(),
    elapsed_seconds: finite(),
    last_output: text(),
    timestamp: text(),
    loop: finiteOrNull(),
    current_tool: nonEmptyTextOrNull(),
    tool_uses: finite(),
    started_at: nonEmptyTextOrNull(),
  },
  'progress.json does not contain a JSON object',
);

export type ProgressDocument = v.InferOutput<typeof progressSchema>;

export const PROGRESS: RalphDocument<ProgressDocument> = { path: (p) => p.progress, schema: progressSchema, empty: neutralValue(progressSchema) };
