import { describe, expect, it } from 'vitest';
import type { AgentProgress } from '../../src/agent-result.js';
import { createLiveRenderer } from '../../src/ui/live-renderer.js';

const render = (events: AgentProgress[], showToolArgs = true): string => {
  const renderer = createLiveRenderer({ showToolArgs });
  return events.map((event) => renderer.push(event)).join('');
};

describe('live renderer on neutral progress', () => {
  it('an answer that arrives only at the end is shown once, then the summary line', () => {
    expect(
      render([
        { kind: 'session_started', sessionId: 's1' },
        { kind: 'finished', isError: false, answer: 'All done.\n\n', errorLabel: 'Error', reason: 'All done.', turns: 1, costUsd: 0.25, durationMs: 1500 },
      ]),
    ).toBe('All done.\n✅ Done · 1 turn · $0.2500 · 1.5s\n');
  });

  it('streamed text is not repeated by the final answer, and lines start fresh', () => {
    expect(
      render([
        { kind: 'text_delta', text: 'Work' },
        { kind: 'text_delta', text: 'ing' },
        { kind: 'tool_use', tool: 'Bash', argument: 'npm test' },
        { kind: 'text_delta', text: 'Done' },
        { kind: 'text_end' },
        { kind: 'finished', isError: false, answer: 'Done', errorLabel: 'Error', reason: 'Done' },
      ]),
    ).toBe('Working\n⚡ [Bash] npm test\nDone\n✅ Done\n');
  });

  it('an error names its label and reason, unless the message already said it', () => {
    expect(render([{ kind: 'finished', isError: true, errorLabel: 'error_max_turns', reason: 'Reached maximum number of turns (1)' }])).toBe(
      '❌ error_max_turns: Reached maximum number of turns (1)\n',
    );
    expect(
      render([
        { kind: 'message', text: 'API Error: overloaded' },
        { kind: 'finished', isError: true, errorLabel: 'Error (API 529)', reason: 'API Error: overloaded' },
      ]),
    ).toBe('API Error: overloaded\n❌ Error (API 529)\n');
  });

  it('retries, limits, tasks and terminal escapes', () => {
    expect(render([{ kind: 'api_retry', attempt: 2, maxRetries: 10, error: 'rate_limit', status: 429, delayMs: 1200 }])).toBe(
      '⏳ API retry 2/10 — rate_limit (429), next attempt in 1.2s\n',
    );
    expect(render([{ kind: 'usage_limit', limitType: 'five_hour', resetsAt: Date.parse('2026-11-22T14:39:00Z') }])).toBe(
      '⛔ Usage limit reached (five_hour) — resets 2026-11-22T14:39:00Z\n',
    );
    expect(
      render([
        { kind: 'task_started', tool: 'Agent', description: 'Explore\nmore' },
        { kind: 'task_progress', description: 'Reading' },
      ]),
    ).toBe('🚀 Agent: Explore\n📌 Reading\n');
    expect(render([{ kind: 'tool_use', tool: 'Bash', argument: 'rm x' }], false)).toBe('⚡ [Bash]\n');
    expect(render([{ kind: 'message', text: 'red \u001b[31mtext\u001b[0m' }])).not.toContain('\u001b');
  });
});
