import type { Clock } from '../../../../src/ports.js';

/** Starts at a fixed instant and moves only when the loop sleeps: a wait of an hour takes no time. */
export class ManualClock implements Clock {
  /** Every sleep the loop asked for, in ms. */
  readonly sleeps: number[] = [];
  /** Called before each sleep: a test may abort, request a stop, or change the world here. */
  onSleep: ((ms: number) => void) | undefined;

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
    this.time += Math.max(0, ms);
    await Promise.resolve();
  }
}
