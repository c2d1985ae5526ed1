import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runMonitor, type MonitorStream } from '../../src/features/observe/monitor/run-monitor.js';
import type { Clock } from '../../src/ports.js';
import type { MonitorSnapshot } from '../../src/state/monitor-snapshot.js';

const HIDE = '\u001b[?25l';
const SHOW = '\u001b[?25h';
const HOME = '\u001b[H';
const CLEAR = '\u001b[2J';
const EOL = '\u001b[K';
const EOS = '\u001b[J';

class FakeTerminal extends EventEmitter implements MonitorStream {
  chunks: string[] = [];
  columns = 80;
  rows = 40;
  constructor(
    public isTTY: boolean,
    private readonly failOnWrite?: number,
  ) {
    super();
  }
  write(chunk: string): boolean {
    if (this.failOnWrite !== undefined && this.chunks.length >= this.failOnWrite) {
      const error = new Error('write EIO') as NodeJS.ErrnoException;
      error.code = 'EIO';
      throw error;
    }
    this.chunks.push(chunk);
    return true;
  }
}

/** A clock whose sleeps run `onSleep` and return at once; time moves by the slept amount. */
function fakeClock(onSleep: (count: number) => void): Clock & { sleeps: number[] } {
  let now = Date.parse('2026-03-01T12:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      now += ms;
      onSleep(sleeps.length);
      if (signal?.aborted) throw new Error('aborted');
    },
    every: () => undefined,
  };
}

function snapshotAt(now: number): MonitorSnapshot {
  return {
    takenAt: new Date(now).toISOString(),
    projectDir: '/p',
    status: { kind: 'missing' },
    progress: { kind: 'missing' },
    circuit: { kind: 'missing' },
    sessionId: null,
    logLines: [`[x] [INFO] frame at ${now}`],
    loopAlive: null,
  };
}

function setup(options: { tty?: boolean; stopAfter?: number; failOnWrite?: number } = {}) {
  const stdout = new FakeTerminal(options.tty ?? true, options.failOnWrite);
  const stderr: string[] = [];
  const controller = new AbortController();
  const reads: number[] = [];
  const clock = fakeClock((count) => {
    if (count >= (options.stopAfter ?? 3)) controller.abort();
  });
  const deps = {
    stdout,
    stderr: { write: (s: string) => stderr.push(s) },
    clock,
    signal: controller.signal,
    color: false,
    read: (_dir: string, now: number) => {
      reads.push(now);
      return snapshotAt(now);
    },
  };
  return { stdout, stderr, controller, clock, reads, deps };
}

describe('runMonitor', () => {
  it('redraws in place every interval, hides the cursor and restores it on stop', async () => {
    const t = setup({ stopAfter: 3 });
    expect(await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps)).toBe(0);
    expect(t.clock.sleeps).toEqual([2000, 2000, 2000]);
    expect(t.reads).toHaveLength(3);
    const [hide, first, second, third, restore] = t.stdout.chunks;
    expect(hide).toBe(HIDE);
    expect(first?.startsWith(`${CLEAR}${HOME}`)).toBe(true);
    for (const frame of [second, third]) {
      expect(frame?.startsWith(HOME)).toBe(true);
      expect(frame).not.toContain(CLEAR);
      expect(frame?.endsWith(`${EOL}${EOS}`)).toBe(true);
      // Every line clears its own rest, so a shorter frame leaves no debris.
      for (const line of frame?.split('\n') ?? []) expect(line.endsWith(EOL) || line.endsWith(EOS)).toBe(true);
    }
    expect(second).toContain(`frame at ${Date.parse('2026-03-01T12:00:02Z')}`);
    expect(restore).toBe(`${SHOW}\n`);
    expect(t.stderr.join('')).toBe('Monitor stopped.\n');
  });

  it('never writes past the last row (no scrolling)', async () => {
    const t = setup({ stopAfter: 1 });
    t.stdout.rows = 10;
    await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps);
    const frame = t.stdout.chunks[1] ?? '';
    expect(frame.split('\n')).toHaveLength(10);
    expect(frame.endsWith('\n')).toBe(false);
  });

  it('stops at once when the signal is already aborted, still restoring the cursor', async () => {
    const t = setup();
    t.controller.abort();
    await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps);
    expect(t.reads).toHaveLength(0);
    expect(t.stdout.chunks).toEqual([HIDE, `${SHOW}\n`]);
    expect(t.stderr.join('')).toBe('Monitor stopped.\n');
  });

  it('exits quietly when the terminal goes away (EIO on write)', async () => {
    const t = setup({ failOnWrite: 2, stopAfter: 100 });
    expect(await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps)).toBe(0);
    expect(t.stdout.chunks).toHaveLength(2);
    expect(t.stderr).toEqual([]);
    expect(t.clock.sleeps.length).toBeLessThanOrEqual(1);
  });

  it('stops when the stream reports EPIPE asynchronously', async () => {
    const t = setup({ stopAfter: 100 });
    t.deps.clock = fakeClock((count) => {
      if (count === 2) t.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    });
    expect(await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps)).toBe(0);
    expect(t.reads).toHaveLength(2);
    expect(t.stderr).toEqual([]);
    // A late error after the run must not throw either.
    expect(() => t.stdout.emit('error', new Error('late'))).not.toThrow();
  });

  it('clears the whole screen again after a resize', async () => {
    const t = setup({ stopAfter: 100 });
    t.deps.clock = fakeClock((count) => {
      if (count === 1) {
        t.stdout.columns = 120;
        t.stdout.emit('resize');
      }
      if (count === 3) t.controller.abort();
    });
    await runMonitor({ projectDir: '/p', intervalSec: 2 }, t.deps);
    const frames = t.stdout.chunks.slice(1, -1);
    expect(frames.map((f) => f.startsWith(CLEAR))).toEqual([true, true, false]);
    expect(frames[1]).toContain('─'.repeat(120));
    expect(t.stdout.listenerCount('resize')).toBe(0);
  });

  it('writes plain frames one after another when stdout is not a terminal', async () => {
    const t = setup({ tty: false, stopAfter: 2 });
    await runMonitor({ projectDir: '/p', intervalSec: 5 }, t.deps);
    const out = t.stdout.chunks.join('');
    expect(out).not.toContain('\u001b');
    expect(out.match(/RALPH MONITOR/g)).toHaveLength(2);
    expect(out).toContain('Refreshes every 5s');
    expect(t.stderr.join('')).toBe('Monitor stopped.\n');
  });
});
