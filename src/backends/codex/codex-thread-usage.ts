import { readFileSync } from 'node:fs';
import type { TokenUsage } from '../../agent-result.js';
import { writeJsonAtomic } from '../../state/json-file.js';
import { isObject, str } from '../claude/json-fields.js';

/**
 * The token totals of the thread Ralph ran last, kept in a file: Codex reports a thread's
 * running totals, and the first call that resumes it after a restart of Ralph needs the totals
 * before it to know what it used itself. Only the last thread is kept: Ralph resumes no other.
 */
export interface ThreadUsageStore {
  before(threadId: string): TokenUsage | undefined;
  remember(threadId: string, totals: TokenUsage): void;
}

export function threadUsageFile(path: string): ThreadUsageStore {
  let last: { threadId: string; totals: TokenUsage } | undefined;
  let loaded = false;
  const load = (): void => {
    if (loaded) return;
    loaded = true;
    try {
      const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (!isObject(value) || !isObject(value['totals'])) return;
      const threadId = str(value['thread_id']);
      const t = value['totals'];
      const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
      if (threadId)
        last = {
          threadId,
          totals: {
            inputTokens: n(t['inputTokens']),
            outputTokens: n(t['outputTokens']),
            cacheReadInputTokens: n(t['cacheReadInputTokens']),
            cacheCreationInputTokens: n(t['cacheCreationInputTokens']),
          },
        };
    } catch {
      // No file yet, or one Ralph cannot read: the call's figures are the thread's totals.
    }
  };
  return {
    before(threadId) {
      load();
      return last?.threadId === threadId ? last.totals : undefined;
    },
    remember(threadId, totals) {
      loaded = true;
      last = { threadId, totals };
      try {
        writeJsonAtomic(path, { thread_id: threadId, totals });
      } catch {
        // Kept in memory still; only a restart of Ralph would count this thread's earlier tokens again.
      }
    },
  };
}
