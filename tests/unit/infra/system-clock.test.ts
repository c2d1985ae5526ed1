import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/infra/system-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the system clock', () => {
  it('beats every interval with the time, until its signal aborts, and then holds no timer', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const beats: number[] = [];
    const beating = new AbortController();
    systemClock.every(1000, beating.signal, (now) => beats.push(now));
    vi.advanceTimersByTime(3500);
    expect(beats).toEqual([1_001_000, 1_002_000, 1_003_000]);
    beating.abort();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(beats).toHaveLength(3);
  });

  it('never starts beating for a signal that already aborted', () => {
    vi.useFakeTimers();
    const beats: number[] = [];
    systemClock.every(10, AbortSignal.abort(), (now) => beats.push(now));
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(beats).toEqual([]);
  });

  it('sleeps until the time, or rejects as soon as its signal aborts', async () => {
    vi.useFakeTimers();
    const slept = systemClock.sleep(2000);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(slept).resolves.toBeUndefined();
    const stopped = new AbortController();
    const cut = systemClock.sleep(60_000, stopped.signal);
    stopped.abort();
    await expect(cut).rejects.toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
