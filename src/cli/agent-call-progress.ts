import type { AgentBackend, Clock } from '../ports.js';
import { createCallProgress } from '../ui/call-progress.js';

/** How often the sign of life is redrawn on a terminal (without one it prints a line a minute). */
const TERMINAL_TICK_MS = 250;
const PLAIN_TICK_MS = 1000;

export interface ProgressOutput {
  tty: boolean;
  write(text: string): void;
  columns?: number;
}

/**
 * An agent backend with a sign of life while a single call runs outside the
 * loop (ralph-import's conversion): a spinner with the elapsed time on a
 * terminal, a "still running" line a minute in a log. Such a call can take
 * minutes, and a silent command looks hung. The beats come from `clock`.
 */
export function showingProgress(backend: AgentBackend, output: ProgressOutput, clock: Clock): AgentBackend {
  const run: AgentBackend['run'] = async (request, signal) => {
    const progress = createCallProgress({
      tty: output.tty,
      write: output.write,
      startedAt: clock.now(),
      agent: backend.displayName,
      ...(output.columns ? { columns: output.columns } : {}),
    });
    const beating = new AbortController();
    clock.every(output.tty ? TERMINAL_TICK_MS : PLAIN_TICK_MS, beating.signal, (now) => progress.tick(now));
    try {
      return await backend.run(request, signal);
    } finally {
      beating.abort();
      progress.stop();
    }
  };
  return {
    name: backend.name,
    displayName: backend.displayName,
    run,
    describe: (request) => backend.describe(request),
    describeOutput: (request) => backend.describeOutput(request),
  };
}
