import { agentDisplayName } from '../../backends/registry.js';
import type { RalphConfig } from '../../config/keys.js';
import type { Redactor } from '../../core/secret-redactor.js';
import type { LoopEvent } from '../../engine/loop-events.js';
import type { Emit } from '../../engine/ports.js';
import type { Clock, Logger, Notifier } from '../../ports.js';
import { createEventLog } from '../../state/event-log.js';
import type { LoopStore } from '../../state/loop-store.js';
import { createCallProgress } from '../../ui/call-progress.js';
import { createEventLogRecorder } from './event-log-recorder.js';
import { createReceiptWriter } from './receipt-writer.js';
import { configuredModel, createReceiptRecorder, type ReceiptRun } from './receipt-recorder.js';
import { createLiveView, type ShownEvent } from './live-view.js';
import { createNotifierPolicy } from './notifier-policy.js';
import { createRunFilesProjector } from './run-files-projector.js';
import { createTerminalPresenter } from './terminal-presenter.js';

export interface LoopSubscriberContext {
  config: RalphConfig;
  clock: Clock;
  logger: Logger;
  store: LoopStore;
  notifier: Notifier;
  backend: string;
  pid: number;
  tty: boolean;
  write(text: string | Uint8Array): void;
  columns?: number;
  /** The command line that started this loop, for advice to run it again. */
  restartCommand?: string;
  /** The run's redactor of text as it is now (it grows with the secrets the run learns). */
  redactor: () => Redactor;
  /** The run the receipts belong to (.ralph/logs/receipts.jsonl); none are written without it. */
  receiptRun?: ReceiptRun;
}

/**
 * The loop's events, delivered to everything that shows them: session.jsonl, the files
 * watchers read, the terminal and ralph.log, then desktop notifications (after the line
 * that explains them). The agent's progress is rendered once, by the live view, for both
 * the terminal and live.log.
 */
export function createLoopSubscribers(c: LoopSubscriberContext): Emit {
  const shown: Array<(event: ShownEvent) => void> = [
    createRunFilesProjector(c.store, { config: c.config, project: c.store.paths.project, backend: c.backend, pid: c.pid }, () => c.clock.now()),
    createTerminalPresenter({
      logger: c.logger,
      write: c.write,
      tty: c.tty,
      live: c.config.live,
      ...(c.restartCommand !== undefined ? { restartCommand: c.restartCommand } : {}),
      // A stdout chunk of the agent is read in one go: its output goes out once it is handled.
      deferLiveOutput: (flush) => queueMicrotask(flush),
      createCallProgress: (startedAt) =>
        createCallProgress({ tty: c.tty, write: c.write, startedAt, agent: agentDisplayName(c.config.backend), ...(c.columns ? { columns: c.columns } : {}) }),
    }),
  ];
  const subscribers: Array<(event: LoopEvent) => void> = [
    createEventLogRecorder(createEventLog(c.store.paths.sessionRecording, () => c.clock.now())),
    ...(c.receiptRun
      ? [
          createReceiptRecorder(
            c.receiptRun,
            { backend: c.backend, model: configuredModel(c.config), now: () => c.clock.now(), redact: (text) => c.redactor().redact(text) },
            createReceiptWriter(c.store.paths.receipts, (message) => c.logger.warn(message)),
          ),
        ]
      : []),
    createLiveView({ showToolArgs: c.config.showToolArgs, redactor: c.redactor }, (event) => {
      for (const subscriber of shown) subscriber(event);
    }),
    createNotifierPolicy(c.notifier),
  ];
  return (event) => {
    for (const subscriber of subscribers) subscriber(event);
  };
}
