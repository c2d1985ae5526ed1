import type { LoopRun, Step } from './loop-run.js';

/** The pause between iterations (--pause); Ctrl+C during it stops the loop. */
export async function pause(s: LoopRun): Promise<Step> {
  const seconds = s.config.pauseSeconds;
  if (seconds <= 0) return undefined;
  try {
    await s.deps.clock.sleep(seconds * 1000, s.deps.interrupt);
  } catch {
    return { stop: 'interrupted' };
  }
  return undefined;
}
