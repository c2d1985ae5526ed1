import { appendLine } from './json-file.js';

/**
 * Session recording: one `{ts, event, data}` JSON object per line in
 * .ralph/logs/session.jsonl, appended as events happen so a crash keeps
 * everything recorded so far.
 */
export interface SessionRecorder {
  record(event: string, data: Record<string, unknown>): void;
}

export function createSessionRecorder(path: string, now: () => number): SessionRecorder {
  return {
    record(event, data) {
      try {
        appendLine(path, JSON.stringify({ ts: now(), event, data }));
      } catch {
        // Recording must never stop the loop.
      }
    },
  };
}
