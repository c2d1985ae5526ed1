import type { LiveView } from '../../engine/loop-deps.js';
import { createNotifier } from '../../features/notify.js';
import type { Notifier, ProcessRunner } from '../../ports.js';
import { createLiveRenderer } from '../../ui/live-renderer.js';

/** `--notify`: desktop notifications for the events that need a person. */
export function createLoopNotifier(enabled: boolean, runner: ProcessRunner): Notifier {
  return createNotifier({ enabled, platform: process.platform, runner, write: (text) => process.stderr.write(text) });
}

/** What --live prints and live.log records, from the stream as it arrives. */
export function createLiveView(showToolArgs: boolean): LiveView {
  return createLiveRenderer({ showToolArgs });
}
