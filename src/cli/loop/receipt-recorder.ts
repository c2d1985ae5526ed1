import { agentSettingField, type BackendName } from '../../backends/agents.js';
import type { RalphConfig } from '../../config/keys.js';
import { windowUsage } from '../../core/rate-limiter.js';
import { buildReceipt, receiptRateLimit, receiptReview, type Receipt, type ReceiptFacts } from '../../core/receipt.js';
import type { LoopEvent } from '../../engine/loop-events.js';

/** Who the receipts are of: the run they belong to and where its loop numbers continue. */
export interface ReceiptRun {
  runId: string;
  /** The loop the run had reached before this process (0 for a new run): iteration = loop - startLoop. */
  startLoop: number;
}

type Draft = Partial<ReceiptFacts> & {
  loop: number;
  toolUses: number;
  permissionDenials: ReceiptFacts['permissionDenials'];
  filesChanged: number;
  changedFiles: readonly string[];
};

/** The model the configured agent is asked for; null when the agent runs its own default. */
export function configuredModel(config: RalphConfig): string | null {
  const field = agentSettingField(config.backend as BackendName, 'model');
  const value = field === undefined ? undefined : (config as unknown as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Gathers each iteration's facts from the loop's events and writes its receipt once the loop has
 * decided what comes next: the next iteration, a wait (a limit, an API retry) or the stop. The
 * write happens right after the decision, with no await in between, so a kill loses at most the
 * iteration in progress. A limit checked before the next call (--max-loops, --max-cost, a stop
 * request) ends the run after a receipt that says `continue`: that stop is the run's, in its
 * report and loop.exit. A dry run makes no call and writes no receipt. Writing never stops the loop.
 */
export function createReceiptRecorder(
  run: ReceiptRun,
  context: { backend: string; model: string | null; now: () => number; redact?: (text: string) => string },
  write: (receipt: Receipt) => void,
): (event: LoopEvent) => void {
  let draft: Draft | undefined;
  /** Ended (iteration.end seen), waiting for the decision. */
  let ended = false;
  let callsThisHour: number | undefined;
  let retryAttempt: number | undefined;
  const checkpoints = new Map<number, { id: string; outcome?: 'dropped' | 'rolled_back' }>();

  const flush = (exit: ReceiptFacts['exit'], retry?: ReceiptFacts['retry']): void => {
    if (!draft || !ended) return;
    const d = draft;
    draft = undefined;
    ended = false;
    const checkpoint = checkpoints.get(d.loop);
    for (const loop of checkpoints.keys()) if (loop <= d.loop) checkpoints.delete(loop);
    if (checkpoint) {
      d.checkpointId = checkpoint.id;
      if (checkpoint.outcome) d.checkpointOutcome = checkpoint.outcome;
    }
    try {
      write(
        buildReceipt(
          {
            runId: run.runId,
            iteration: Math.max(1, d.loop - run.startLoop),
            backend: context.backend,
            model: context.model,
            startedAt: d.startedAt ?? context.now(),
            endedAt: d.endedAt ?? context.now(),
            outcome: d.outcome ?? 'unknown',
            result: d.result ?? '',
            success: d.success ?? false,
            ...d,
            ...(callsThisHour !== undefined ? { callsThisHour } : {}),
            ...(retry ? { retry } : {}),
            exit,
          },
          context.redact,
        ),
      );
    } catch {
      // A receipt must never stop the loop (the event log and status still tell); the writer says its own failures.
    }
  };

  return (e) => {
    switch (e.type) {
      case 'iteration.start':
        flush({ decision: 'continue' });
        draft = { loop: e.iteration, toolUses: 0, permissionDenials: [], filesChanged: 0, changedFiles: [] };
        retryAttempt = undefined;
        return;
      // An iteration's checkpoint is made before the iteration starts: kept by its loop number.
      case 'checkpoint.created':
        checkpoints.set(e.iteration, { id: e.id });
        return;
      case 'checkpoint.dropped':
      case 'checkpoint.restored': {
        const known = checkpoints.get(e.iteration);
        if (known?.id === e.id) known.outcome = e.type === 'checkpoint.dropped' ? 'dropped' : 'rolled_back';
        return;
      }
      case 'analysis':
        if (draft) {
          draft.filesChanged = e.progress.filesChanged;
          draft.changedFiles = e.progress.changedFiles;
        }
        return;
      case 'verify.result':
        if (draft) {
          const r = e.result;
          draft.verify = {
            command: e.command,
            passed: r.passed,
            exit_code: r.exitCode,
            timed_out: r.timedOut,
            duration_ms: r.durationMs,
            attempt: e.attempt,
            max_attempts: e.maxAttempts,
            decision: e.decision,
          };
        }
        return;
      case 'status':
        callsThisHour = windowUsage(e.run.rate, context.now()).calls;
        return;
      case 'iteration.end': {
        if (!draft || !e.call) return;
        const r = e.call.run;
        draft.startedAt = e.startedAt;
        draft.endedAt = e.endedAt;
        draft.outcome = e.outcome;
        draft.result = e.verdict?.label ?? '';
        draft.success = e.verdict?.success ?? false;
        if (r.sessionId !== undefined) draft.sessionId = r.sessionId;
        if (r.usage) draft.usage = r.usage;
        if (r.cost) draft.cost = r.cost;
        if (r.turns !== undefined) draft.turns = r.turns;
        draft.toolUses = r.toolUses;
        draft.permissionDenials = r.permissionDenials;
        const rateLimit = receiptRateLimit(r.rateLimitWindows);
        if (rateLimit) draft.rateLimit = rateLimit;
        if (e.call.progress) {
          draft.filesChanged = e.call.progress.filesChanged;
          draft.changedFiles = e.call.progress.changedFiles;
        }
        ended = true;
        return;
      }
      // The reviewer judges the iteration before the loop says what it decided.
      case 'review.end':
        if (draft) draft.review = receiptReview(e);
        return;
      case 'notice':
        if (e.code === 'api_retry.waiting') retryAttempt = e.attempt;
        return;
      case 'wait.start':
        flush(
          { decision: 'wait', reason: e.wait.reason, detail: e.wait.message },
          { reason: e.wait.reason, ...(retryAttempt !== undefined ? { attempt: retryAttempt } : {}) },
        );
        return;
      case 'iteration.decided':
        if (e.stop === null) flush({ decision: 'continue' });
        else flush({ decision: 'stop', reason: e.stop, ...(e.detail !== null ? { detail: e.detail } : {}) });
        return;
      case 'loop.stop':
        flush({ decision: 'stop', reason: e.reason, detail: e.detail });
        return;
      case 'loop.crash':
        flush({ decision: 'stop', reason: 'error', detail: e.message });
        return;
      default:
        return;
    }
  };
}
