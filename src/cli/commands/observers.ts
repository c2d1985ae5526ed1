import { isRecord } from '../../core/guards.js';
import type { LiveView } from '../../engine/loop-deps.js';
import type { Notifier, ProcessRunner } from '../../ports.js';
import { isTextDigest, digestText } from '../../core/text-digest.js';

export function createNotifier(enabled: boolean, _runner: ProcessRunner): Notifier {
  void enabled;
  return { notify: () => undefined };
}

export function createLiveView(_showToolArgs: boolean): LiveView {
  return {
    push(event) {
      if (isRecord(event) && event['type'] === 'result') {
        const r = event['result'];
        if (isTextDigest(r)) return `${digestText(r)}\n`;
        if (typeof r === 'string') return `${r}\n`;
      }
      return '';
    },
  };
}
