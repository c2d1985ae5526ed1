import type { LiveView } from '../../engine/loop-deps.js';
import { createNotifier } from '../../features/observe/notify.js';
import type { Notifier, ProcessRunner } from '../../ports.js';
import { LiveTextRedactor } from '../../core/live-text-redactor.js';
import { currentRedactors } from '../../state/redaction.js';
import { createLiveRenderer } from '../../ui/live-renderer.js';

/** `--notify`: desktop notifications for the events that need a person. */
export function createLoopNotifier(enabled: boolean, runner: ProcessRunner): Notifier {
  return createNotifier({ enabled, platform: process.platform, runner, write: (text) => process.stderr.write(text) });
}

/**
 * What --live prints and live.log records, from the stream as it arrives, with the user's secrets
 * redacted across the agent's messages (a token split over two of them is still found).
 */
export function createLiveView(showToolArgs: boolean): LiveView {
  const renderer = createLiveRenderer({ showToolArgs });
  const redactor = new LiveTextRedactor(currentRedactors().text);
  return { push: (event) => redactor.write(renderer.pushParts(event)), end: () => redactor.end() };
}
