import { describe, expect, it } from 'vitest';
import { createCallProgress, spinnerLine, stillRunningLine, STILL_RUNNING_INTERVAL_MS } from '../../src/ui/call-progress.js';

const T0 = 1_767_000_000_000;

function presenter(tty: boolean, columns = 120) {
  const out: string[] = [];
  const p = createCallProgress({ tty, write: (t) => void out.push(t), startedAt: T0, agent: 'Claude Code', columns });
  return { p, out };
}

describe('call progress without a terminal', () => {
  it('prints one line per minute with the elapsed time, the last tool and the last output', () => {
    const { p, out } = presenter(false);
    for (let s = 0; s <= 185; s += 1) {
      if (s === 30) p.update({ tool: 'Bash: npm test' });
      if (s === 31) p.update({ lastLine: 'Running the test suite' });
      p.tick(T0 + s * 1000);
    }
    expect(out).toEqual([
      '  still running: 1m 0s, last tool: Bash: npm test, last output: Running the test suite\n',
      '  still running: 2m 0s, last tool: Bash: npm test, last output: Running the test suite\n',
      '  still running: 3m 0s, last tool: Bash: npm test, last output: Running the test suite\n',
    ]);
    p.stop();
    expect(out).toHaveLength(3);
  });

  it('says only the time while nothing is known about the call', () => {
    const { p, out } = presenter(false);
    p.tick(T0 + STILL_RUNNING_INTERVAL_MS - 1);
    expect(out).toEqual([]);
    p.tick(T0 + STILL_RUNNING_INTERVAL_MS);
    expect(out).toEqual(['  still running: 1m 0s\n']);
  });
});

describe('call progress on a terminal', () => {
  it('redraws one spinner line in place at every tick and clears it at the end', () => {
    const { p, out } = presenter(true);
    p.tick(T0);
    p.update({ tool: 'Edit: src/app.ts' });
    p.tick(T0 + 1000);
    p.tick(T0 + 181_000);
    p.stop();
    expect(out).toEqual([
      '\r\x1b[2K⠋ Claude Code working · 0s',
      '\r\x1b[2K⠙ Claude Code working · 1s · Edit: src/app.ts',
      '\r\x1b[2K⠹ Claude Code working · 3m 1s · Edit: src/app.ts',
      '\r\x1b[2K',
    ]);
  });

  it('writes nothing at the end when it never drew', () => {
    const { p, out } = presenter(true);
    p.stop();
    expect(out).toEqual([]);
  });
});

describe('spinnerLine', () => {
  it('fits the terminal width so the line never wraps', () => {
    const line = spinnerLine({ elapsedMs: 5000, tool: 'Bash: npm test', lastLine: 'x'.repeat(200) }, 0, 'Claude Code', 60);
    expect([...line].length).toBeLessThanOrEqual(59);
    expect(line.endsWith('…')).toBe(true);
  });

  it('keeps escape sequences and line breaks of the agent out of the terminal', () => {
    const line = spinnerLine({ elapsedMs: 0, tool: null, lastLine: 'ok\x1b[2J\nnext\rline' }, 0, 'Claude Code', 120);
    expect(line).toBe('⠋ Claude Code working · 0s · ok next line');
  });
});

describe('stillRunningLine', () => {
  it('counts hours', () => {
    expect(stillRunningLine({ elapsedMs: 3_725_000, tool: null, lastLine: '' })).toBe('  still running: 1h 2m 5s\n');
  });
});
