import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Notifier, NotifyEvent, ProcessRunner } from '../../ports.js';

/**
 * Desktop notifications for `--notify`: only the events that need a person
 * (the original also notified after every successful loop). macOS
 * uses osascript, elsewhere notify-send when it is installed, else the
 * terminal bell. A notification must never disturb the loop: every failure is
 * swallowed (falling back to the bell).
 */

export interface NotifierOptions {
  enabled: boolean;
  platform: NodeJS.Platform;
  runner: ProcessRunner;
  /** Where the terminal bell goes (stderr). */
  write: (text: string) => void;
  /** For finding osascript / notify-send on PATH (default: process.env). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

const TITLES: Record<NotifyEvent, string> = {
  completed: 'Ralph: work complete',
  circuit_open: 'Ralph: circuit breaker opened',
  usage_limit: "Ralph: the agent's usage limit reached",
  verify_escalation: 'Ralph: verify gate needs you',
  error: 'Ralph: stopped with an error',
};

const URGENT: ReadonlySet<NotifyEvent> = new Set(['circuit_open', 'verify_escalation', 'error']);
const MAX_MESSAGE_CHARS = 300;
const TIMEOUT_MS = 5000;
const BELL = '\u0007';

/** One line of plain text: notification daemons and AppleScript both dislike control characters. */
function cleanMessage(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}

/** An AppleScript string literal body: backslash and double quote are escaped, nothing is dropped. */
export function escapeAppleScript(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** The AppleScript that shows a notification with this title and message. */
export function appleScriptFor(title: string, message: string): string {
  return `display notification "${escapeAppleScript(message)}" with title "${escapeAppleScript(title)}"`;
}

/** Absolute path of an executable on PATH, or undefined. */
export function findExecutable(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

export function createNotifier(options: NotifierOptions): Notifier {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const bell = (): void => {
    try {
      options.write(BELL);
    } catch {
      // No terminal to ring.
    }
  };
  const run = async (file: string, args: string[]): Promise<boolean> => {
    try {
      const result = await options.runner.run(file, args, { cwd, timeoutMs: TIMEOUT_MS });
      return result.exitCode === 0 && result.spawnError === undefined;
    } catch {
      return false;
    }
  };
  return {
    async notify(event, message) {
      if (!options.enabled) return;
      const title = TITLES[event];
      const text = cleanMessage(message) || title;
      let shown = false;
      if (options.platform === 'darwin') {
        const osascript = findExecutable('osascript', env['PATH']);
        if (osascript) shown = await run(osascript, ['-e', appleScriptFor(title, text)]);
      } else {
        const notifySend = findExecutable('notify-send', env['PATH']);
        const urgency = URGENT.has(event) ? 'critical' : 'normal';
        if (notifySend) shown = await run(notifySend, ['--app-name=Ralph', `--urgency=${urgency}`, '--', title, text]);
      }
      if (!shown) bell();
    },
  };
}
