import type { Clock } from '../../../../src/ports.js';

interface Beat {
  every: number;
  next: number;
  signal: AbortSignal;
  tick(now: number): void;
}

/**
 * Starts at a fixed instant and moves only when the loop sleeps (or a test calls `advance`): a wait
 * of an hour takes no time. Beats asked for with `every` fire as the time passes their instants, in
 * order, each with its own instant as the time.
 */
export class ManualClock implements Clock {
  /** Every sleep the loop asked for, in ms. */
  readonly sleeps: number[] = [];
  /** Called before each sleep: a test may abort, request a stop, or change the world here. */
  onSleep: ((ms: number) => void) | undefined;
  private beats: Beat[] = [];

  constructor(public time = Date.parse('2026-03-02T10:00:00Z')) {}

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.onSleep?.(ms);
    if (signal?.aborted) {
      const error = new Error('The operation was aborted');
      error.name = 'AbortError';
      throw error;
    }
    this.sleeps.push(ms);
    this.advance(ms);
    await Promise.resolve();
  }

  every(ms: number, signal: AbortSignal, tick: (now: number) => void): void {
    if (!signal.aborted) this.beats.push({ every: ms, next: this.time + ms, signal, tick });
  }

  /** Moves the time on by `ms`, firing the beats due on the way. */
  advance(ms: number): void {
    const end = this.time + Math.max(0, ms);
    for (;;) {
      this.beats = this.beats.filter((beat) => !beat.signal.aborted);
      const due = this.beats.reduce<Beat | undefined>((first, beat) => (beat.next <= end && (!first || beat.next < first.next) ? beat : first), undefined);
      if (!due) break;
      this.time = due.next;
      due.next += due.every;
      due.tick(this.time);
    }
    this.time = end;
  }
}
