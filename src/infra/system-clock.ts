import type { Clock } from '../ports.js';

export function abortError(): Error {
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/**
 * Test seam (RALPH_TEST_MAX_WAIT_MS): the system clock plus an offset that
 * shortened waits add to, so that after a capped one-hour wait the rest of
 * Ralph sees an hour gone by (rate windows expire, reset times pass).
 */
export function createOffsetClock(): Clock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    sleep: systemClock.sleep,
    advance(ms) {
      if (ms > 0) offset += ms;
    },
  };
}
