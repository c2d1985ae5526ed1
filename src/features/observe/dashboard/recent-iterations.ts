import type { EventRecord } from '../event-log-inspect.js';
import type { RecentIteration } from './dashboard-view.js';

/** Iterations listed with their summaries. */
export const DASHBOARD_RECENT_ITERATIONS = 10;
const SUMMARY_CHARS = 400;
const TOLD = new Set(['iteration.start', 'analysis', 'verify.result', 'iteration.end']);

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function blank(iteration: number): RecentIteration {
  return { iteration, result: '', success: null, summary: '', filesChanged: null, verifyPassed: null, durationSec: null };
}

/**
 * The last iterations as the session recording tells them: what the agent
 * said it did (analysis), whether verify passed and how the iteration ended.
 * Iteration numbers start again with each run, so an `iteration.start` opens
 * a new entry even when its number was seen before. Newest first.
 */
export function recentIterations(events: readonly EventRecord[], limit = DASHBOARD_RECENT_ITERATIONS): RecentIteration[] {
  const entries: RecentIteration[] = [];
  let current: RecentIteration | undefined;
  for (const record of events) {
    const iteration = numberOf(record.data['iteration']);
    // Other events (a checkpoint made before the iteration starts) say nothing the list shows.
    if (iteration === null || !TOLD.has(record.event)) continue;
    if (record.event === 'iteration.start' || current === undefined || current.iteration !== iteration) {
      current = blank(iteration);
      entries.push(current);
    }
    const data = record.data;
    switch (record.event) {
      case 'analysis':
        current.summary = textOf(data['summary']).slice(0, SUMMARY_CHARS);
        current.filesChanged = numberOf(data['files_changed']);
        break;
      case 'verify.result':
        current.verifyPassed = data['passed'] === true;
        break;
      case 'iteration.end': {
        current.result = textOf(data['result']) || textOf(data['outcome']);
        current.success = typeof data['success'] === 'boolean' ? data['success'] : null;
        const ms = numberOf(data['duration_ms']);
        current.durationSec = ms === null ? null : Math.round(ms / 100) / 10;
        break;
      }
      default:
        break;
    }
  }
  return entries.slice(-limit).reverse();
}
