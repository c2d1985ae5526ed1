import { randomBytes } from 'node:crypto';
import { windowUsage } from '../../core/rate-limiter.js';
import { fileTimestamp } from '../../core/time-format.js';
import { runKindOf } from '../../core/run-kind.js';
import { decideResume, describeResume, type ResumeDecision } from '../../core/run-resume.js';
import type { LoopOptions } from '../../engine/loop-deps.js';
import { findLeftBehindRun } from '../../infra/left-behind-run.js';
import { readDocument } from '../../state/document-store.js';
import { STATUS } from '../../state/documents/status.js';
import type { LoopStore } from '../../state/loop-store.js';
import { readReceipts } from '../../state/receipt-log.js';
import type { Logger } from '../../ports.js';

export interface RunStart {
  runId: string;
  /** What this run is (core/run-kind.ts), for its run file. */
  kind: string;
  /** The loop the run had reached before this process (0 for a new run). */
  startLoop: number;
  resume?: NonNullable<LoopOptions['resume']>;
  /**
   * A dry run found a run a crash cut short: it leaves that run's file (no run guard, which would
   * end and remove it) and its status.json alone, so the next real start can still resume it.
   */
  keepLeftBehind?: boolean;
}

/** A new run's id: when it started, and a few random characters against two starts in one second. */
export function newRunId(nowMs: number): string {
  return `${fileTimestamp(nowMs)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Whether this loop continues a run a crash cut short (docs/receipts-and-resume.md), decided
 * from the run file it left behind, status.json and the receipts; says so in one line when it
 * does. Call with the project lock held and before the run guard, which removes that run file.
 */
export function startOrResumeRun(
  store: LoopStore,
  options: { fresh: boolean; dryRun: boolean; now: number; task?: string | undefined },
  logger: Pick<Logger, 'info' | 'warn'>,
): RunStart {
  const paths = store.paths;
  const kind = runKindOf(options.task);
  const leftBehind = findLeftBehindRun(paths.runFile);
  if (leftBehind !== undefined && options.dryRun) {
    logger.info('Dry run: the run a crash cut short is left as it is, for the same command without --dry-run to resume.');
    return { runId: newRunId(options.now), kind, startLoop: 0, keepLeftBehind: true };
  }
  let decision: ResumeDecision = { kind: 'new', why: 'clean_end' };
  if (leftBehind !== undefined) {
    const status = readDocument(paths, STATUS);
    let receipts: ReturnType<typeof readReceipts> = { receipts: [], notes: [] };
    try {
      receipts = readReceipts(paths.receipts);
    } catch (error) {
      logger.warn(`The receipts cannot be read (${(error as Error).message}): the run starts anew.`);
    }
    for (const note of receipts.notes) logger.warn(`${paths.receipts}: ${note}`);
    decision = decideResume({
      fresh: options.fresh,
      leftBehind,
      kind,
      status: status.kind === 'ok' ? status.value : undefined,
      receipts: receipts.receipts,
    });
  }
  if (decision.kind === 'new') {
    if (decision.why === 'fresh') logger.info('Starting a new run (--fresh): the run a crash cut short is not resumed; its receipts stay.');
    if (decision.why === 'other_run')
      logger.warn(`Starting a new run: the run a crash cut short (${decision.runId}) is not resumed, ${decision.reason}. Its receipts stay.`);
    return { runId: newRunId(options.now), kind, startLoop: 0 };
  }
  const calls = windowUsage(store.loadRate(), options.now).calls;
  logger.info(describeResume(decision, { callsThisHour: calls, circuit: store.loadCircuit(options.now).state }));
  return {
    runId: decision.runId,
    kind,
    startLoop: decision.crashedAt,
    resume: { loop: decision.crashedAt, totals: decision.totals, ...(decision.review ? { review: decision.review } : {}) },
  };
}
