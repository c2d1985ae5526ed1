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
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  every(ms, signal, tick) {
    if (signal.aborted) return;
    const timer = setInterval(() => tick(Date.now()), ms);
    // A beat is a sign of life, never a reason to stay: the process ends when its work does.
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  },
};
