import { appendLine } from './json-file.js';

/**
 * The run's event log: one `{ts, event, data}` JSON object per line in
 * .ralph/logs/session.jsonl (the name users and tools know), appended as
 * events happen so a crash keeps everything recorded so far.
 */
export interface EventLog {
  append(event: string, data: Record<string, unknown>): void;
}

export function createEventLog(path: string, now: () => number): EventLog {
  return {
    append(event, data) {
      try {
        appendLine(path, JSON.stringify({ ts: now(), event, data }));
      } catch {
        // Recording must never stop the loop.
      }
    },
  };
}
