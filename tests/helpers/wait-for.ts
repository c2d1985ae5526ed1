import { vi } from 'vitest';

/**
 * Waits until `check` holds, polling every 25 ms; fails naming `what` after
 * `timeoutMs`. A check that throws (a file read half-written) is retried too.
 */
export async function waitFor(check: () => boolean, what = 'the condition', timeoutMs = 60_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 25 },
  );
}
