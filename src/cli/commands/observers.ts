import { createNotifier } from '../../features/observe/notify.js';
import type { Notifier, ProcessRunner } from '../../ports.js';

/** `--notify`: desktop notifications for the events that need a person. */
export function createLoopNotifier(enabled: boolean, runner: ProcessRunner): Notifier {
  return createNotifier({ enabled, platform: process.platform, runner, write: (text) => process.stderr.write(text) });
}
