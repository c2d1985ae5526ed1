import { describe, expect, it } from 'vitest';
import type { AgentBackend, AgentRequest } from '../../../src/ports.js';
import { emptyAgentResult } from '../../../src/agent-result.js';
import { showingProgress } from '../../../src/cli/agent-call-progress.js';
import { ManualClock } from '../engine/support/manual-clock.js';

/** A backend whose one call ends when the test says so. */
function slowBackend(): { backend: AgentBackend; finish(): void } {
  let finish = (): void => undefined;
  const backend: AgentBackend = {
    name: 'claude',
    displayName: 'Claude Code',
    run: () =>
      new Promise((resolve) => {
        finish = () => resolve(emptyAgentResult({ kind: 'success' } as never, 'exited'));
      }),
    describe: () => 'claude -p …',
    describeOutput: () => 'json',
  };
  return { backend, finish: () => finish() };
}

describe('showingProgress', () => {
  it('on a terminal, a spinner with the elapsed time while the call runs, cleared at its end', async () => {
    const clock = new ManualClock();
    const written: string[] = [];
    const { backend, finish } = slowBackend();
    const call = showingProgress(backend, { tty: true, write: (t) => written.push(t), columns: 80 }, clock).run(
      {} as AgentRequest,
      new AbortController().signal,
    );
    clock.advance(3_000);
    expect(written.join('')).toMatch(/Claude Code working · 3s/);
    finish();
    await call;
    expect(written.at(-1)).toBe('\r\x1b[2K');
    const count = written.length;
    clock.advance(5_000);
    expect(written).toHaveLength(count);
  });

  it('in a log, one "still running" line a minute and no escape codes', async () => {
    const clock = new ManualClock();
    const written: string[] = [];
    const { backend, finish } = slowBackend();
    const call = showingProgress(backend, { tty: false, write: (t) => written.push(t) }, clock).run({} as AgentRequest, new AbortController().signal);
    clock.advance(59_000);
    expect(written).toEqual([]);
    clock.advance(62_000);
    expect(written).toEqual(['  still running: 1m 0s\n', '  still running: 2m 0s\n']);
    finish();
    await call;
    expect(written.join('')).not.toContain('\x1b');
  });

  it('keeps what the backend is and says', () => {
    const { backend } = slowBackend();
    const shown = showingProgress(backend, { tty: false, write: () => undefined }, new ManualClock());
    expect([shown.name, shown.displayName, shown.describe({} as AgentRequest), shown.describeOutput({} as AgentRequest)]).toEqual([
      'claude',
      'Claude Code',
      'claude -p …',
      'json',
    ]);
  });
});
