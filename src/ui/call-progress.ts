import { formatDuration } from '../core/time-format.js';
import { sanitizeLine, truncateToWidth } from './text-fit.js';

/**
 * Sign of life while an agent call runs and nothing else is printed (no
 * --live): on a terminal a spinner line redrawn in place with the elapsed
 * time, the current tool and the last line of output; without a terminal one
 * plain line at a steady interval, so logs of unattended runs show the call
 * is still going. The terminal presenter feeds it the loop's call events.
 */

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Without a terminal: one line per interval, never a flood in CI logs. */
export const STILL_RUNNING_INTERVAL_MS = 60_000;

export interface CallActivity {
  elapsedMs: number;
  /** "Bash: npm test"; null until the agent used a tool. */
  tool: string | null;
  /** Last non-empty line of the agent's output; '' until there is one. */
  lastLine: string;
}

/** Agent text is untrusted: no escape sequences or line breaks reach the terminal. */
function oneLine(text: string): string {
  return sanitizeLine(text).replace(/\s+/g, ' ').trim();
}

/** The spinner line: "⠋ Claude Code working · 3m 0s · Bash: npm test · Running the tests". */
export function spinnerLine(activity: CallActivity, frame: number, agent: string, columns: number): string {
  const parts = [`${FRAMES[frame % FRAMES.length]} ${agent} working`, formatDuration(activity.elapsedMs / 1000)];
  if (activity.tool) parts.push(oneLine(activity.tool));
  if (activity.lastLine) parts.push(oneLine(activity.lastLine));
  // One column short of the width: a full line would wrap and break the redraw.
  return truncateToWidth(parts.join(' · '), Math.max(20, columns - 1));
}

/** The plain line: "  still running: 3m 0s, last tool: Bash: npm test". */
export function stillRunningLine(activity: CallActivity): string {
  const parts = [`  still running: ${formatDuration(activity.elapsedMs / 1000)}`];
  if (activity.tool) parts.push(`last tool: ${oneLine(activity.tool)}`);
  if (activity.lastLine) parts.push(`last output: ${truncateToWidth(oneLine(activity.lastLine), 100)}`);
  return `${parts.join(', ')}\n`;
}

export interface CallProgressOptions {
  tty: boolean;
  write(text: string): void;
  startedAt: number;
  /** "Claude Code" or "mock agent". */
  agent: string;
  /** Terminal width (spinner only). */
  columns?: number;
}

export interface CallProgress {
  /** A tool started or output arrived. */
  update(change: { tool?: string; lastLine?: string }): void;
  /** Called regularly by the caller with the current time. */
  tick(now: number): void;
  /** The call ended: the spinner line is cleared. */
  stop(): void;
}

const CLEAR_LINE = '\r\x1b[2K';

export function createCallProgress(options: CallProgressOptions): CallProgress {
  let tool: string | null = null;
  let lastLine = '';
  let frame = 0;
  let lastPlain = options.startedAt;
  let drawn = false;
  const activity = (now: number): CallActivity => ({ elapsedMs: now - options.startedAt, tool, lastLine });
  return {
    update(change) {
      if (change.tool !== undefined) tool = change.tool;
      if (change.lastLine !== undefined && change.lastLine.trim() !== '') lastLine = change.lastLine;
    },
    tick(now) {
      if (options.tty) {
        options.write(`${CLEAR_LINE}${spinnerLine(activity(now), frame, options.agent, options.columns ?? 80)}`);
        frame += 1;
        drawn = true;
      } else if (now - lastPlain >= STILL_RUNNING_INTERVAL_MS) {
        lastPlain = now;
        options.write(stillRunningLine(activity(now)));
      }
    },
    stop() {
      if (drawn) options.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
