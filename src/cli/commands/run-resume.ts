import { randomBytes } from 'node:crypto';
import { windowUsage } from '../../core/rate-limiter.js';
import { fileTimestamp } from '../../core/time-format.js';
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
  /** The loop the run had reached before this process (0 for a new run). */
  startLoop: number;
  resume?: NonNullable<LoopOptions['resume']>;
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
export function startOrResumeRun(store: LoopStore, options: { fresh: boolean; dryRun: boolean; now: number }, logger: Pick<Logger, 'info' | 'warn'>): RunStart {
  const paths = store.paths;
  const leftBehind = findLeftBehindRun(paths.runFile);
  let decision: ResumeDecision = { kind: 'new', why: 'clean_end' };
  if (leftBehind !== undefined && !options.dryRun) {
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
      status: status.kind === 'ok' ? status.value : undefined,
      receipts: receipts.receipts,
    });
  }
  if (decision.kind === 'new') {
    if (decision.why === 'fresh') logger.info('Starting a new run (--fresh): the run a crash cut short is not resumed; its receipts stay.');
    return { runId: newRunId(options.now), startLoop: 0 };
  }
  const calls = windowUsage(store.loadRate(), options.now).calls;
  logger.info(describeResume(decision, { callsThisHour: calls, circuit: store.loadCircuit(options.now).state }));
  return { runId: decision.runId, startLoop: decision.crashedAt, resume: { loop: decision.crashedAt, totals: decision.totals } };
}
