import type { AgentResult, RateLimitWindow } from '../agent-result.js';
import { emptyTotals, type StatusTotals } from './status-model.js';
import { isoTimestamp } from './time-format.js';

/**
 * The receipt of one iteration: what it was (run, loop, backend, model, session), what it cost
 * (tokens, money, and whether the agent reported the money or Ralph estimated it), what it did
 * (tools, denials, files), what the verify gate and the checkpoint made of it, and what the
 * loop decided next. One JSON object per line of .ralph/logs/receipts.jsonl, published as
 * docs/schemas/receipt.schema.json. `review` is null unless a reviewer judged the iteration,
 * `rate_limit` unless the agent reported a subscription window.
 */
export const RECEIPT_VERSION = 1;

export interface ReceiptTokens {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export type CostSource = 'reported' | 'estimated' | 'unknown' | 'none';

export interface ReceiptVerify {
  command: string;
  passed: boolean;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  attempt: number;
  max_attempts: number;
  decision: 'passed' | 'bounce' | 'escalate';
}

export type CheckpointOutcome = 'dropped' | 'rolled_back' | 'kept';

export interface ReceiptCheckpoint {
  id: string;
  /** dropped: the work was kept and the checkpoint let go; rolled_back: the work tree went back to it; kept: neither happened. */
  rollback: CheckpointOutcome;
}

/** The reviewer's call of the iteration (--review): its verdict, and what the call used, which the run's totals count too. */
export interface ReceiptReview {
  verdict: string;
  findings_count: number;
  backend: string;
  tokens: ReceiptTokens;
  cost: { usd: number | null; source: CostSource };
  turns: number;
}

export interface ReceiptRateLimit {
  window: string;
  status: string;
  resets_at: string | null;
  used_percent: number | null;
}

export type ExitDecision = 'continue' | 'wait' | 'stop';

export interface Receipt {
  version: number;
  run_id: string;
  loop: number;
  /** The n-th iteration this process ran (equals `loop` unless the run was resumed). */
  iteration: number;
  backend: string;
  model: string | null;
  session_id: string | null;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  /** How the agent call ended, and what the iteration amounted to. */
  outcome: string;
  result: string;
  success: boolean;
  tokens: ReceiptTokens;
  cost: { usd: number | null; source: CostSource };
  turns: number;
  tool_uses: number;
  denials: Array<{ tool: string; detail: string }>;
  files_changed: number;
  changed_files: string[];
  verify: ReceiptVerify | null;
  checkpoint: ReceiptCheckpoint | null;
  review: ReceiptReview | null;
  rate_limit: ReceiptRateLimit | null;
  /** Agent calls of the hourly window when the iteration ended. */
  calls_this_hour: number | null;
  retry: { reason: string; attempt: number | null } | null;
  exit: { decision: ExitDecision; reason: string | null; detail: string | null };
}

/** What the loop said about one iteration, gathered from its events. */
export interface ReceiptFacts {
  runId: string;
  loop: number;
  iteration: number;
  backend: string;
  model: string | null;
  startedAt: number;
  endedAt: number;
  outcome: string;
  result: string;
  success: boolean;
  sessionId?: string;
  usage?: { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number };
  cost?: { usd: number; source: 'reported' | 'estimated' };
  turns?: number;
  toolUses: number;
  permissionDenials: ReadonlyArray<{ tool: string; detail?: string }>;
  filesChanged: number;
  changedFiles: readonly string[];
  verify?: ReceiptVerify;
  checkpointId?: string;
  checkpointOutcome?: CheckpointOutcome;
  review?: ReceiptReview;
  rateLimit?: ReceiptRateLimit;
  callsThisHour?: number;
  retry?: { reason: string; attempt?: number };
  exit: { decision: ExitDecision; reason?: string; detail?: string };
}

/** Bounds: a receipt stays one short line whatever the agent did. */
export const RECEIPT_LIMITS = { text: 500, files: 50, denials: 20, line: 16 * 1024 } as const;

function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function count(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

function costOf(f: Pick<ReceiptFacts, 'cost' | 'usage'>): Receipt['cost'] {
  if (f.cost) return { usd: f.cost.usd, source: f.cost.source };
  const tokens = f.usage ? f.usage.inputTokens + f.usage.outputTokens : 0;
  return { usd: null, source: tokens > 0 ? 'unknown' : 'none' };
}

function tokensOf(usage: ReceiptFacts['usage']): ReceiptTokens {
  return {
    input: count(usage?.inputTokens),
    output: count(usage?.outputTokens),
    cache_read: count(usage?.cacheReadInputTokens),
    cache_write: count(usage?.cacheCreationInputTokens),
  };
}

/** The review part of a receipt, from the reviewer's verdict and its call. */
export function receiptReview(r: {
  verdict: string;
  findings: readonly string[];
  backend: string;
  run: Pick<AgentResult, 'usage' | 'cost' | 'turns'>;
}): ReceiptReview {
  return {
    verdict: r.verdict,
    findings_count: r.findings.length,
    backend: r.backend,
    tokens: tokensOf(r.run.usage),
    cost: costOf(r.run),
    turns: count(r.run.turns),
  };
}

/**
 * The receipt of an iteration from its facts; every text clipped, every list bounded. `redact`
 * hides the user's secrets in each text before it is clipped: a secret cut in half would no
 * longer be recognised by the redaction of the whole line.
 */
export function buildReceipt(f: ReceiptFacts, redact: (text: string) => string = (text) => text): Receipt {
  const clip = (text: string, max: number = RECEIPT_LIMITS.text): string => clipText(redact(text), max);
  const receipt: Receipt = {
    version: RECEIPT_VERSION,
    run_id: f.runId,
    loop: f.loop,
    iteration: f.iteration,
    backend: f.backend,
    model: f.model,
    session_id: f.sessionId ?? null,
    started_at: isoTimestamp(f.startedAt),
    ended_at: isoTimestamp(f.endedAt),
    duration_ms: Math.max(0, f.endedAt - f.startedAt),
    outcome: f.outcome,
    result: clip(f.result),
    success: f.success,
    tokens: tokensOf(f.usage),
    cost: costOf(f),
    turns: count(f.turns),
    tool_uses: count(f.toolUses),
    denials: f.permissionDenials.slice(0, RECEIPT_LIMITS.denials).map((d) => ({ tool: clip(d.tool, 200), detail: clip(d.detail ?? '') })),
    files_changed: count(f.filesChanged),
    changed_files: f.changedFiles.slice(0, RECEIPT_LIMITS.files).map((p) => clip(p, 300)),
    verify: f.verify ? { ...f.verify, command: clip(f.verify.command) } : null,
    checkpoint: f.checkpointId !== undefined ? { id: f.checkpointId, rollback: f.checkpointOutcome ?? 'kept' } : null,
    review: f.review ?? null,
    rate_limit: f.rateLimit ?? null,
    calls_this_hour: f.callsThisHour ?? null,
    retry: f.retry ? { reason: clip(f.retry.reason, 200), attempt: f.retry.attempt ?? null } : null,
    exit: { decision: f.exit.decision, reason: f.exit.reason ?? null, detail: f.exit.detail !== undefined ? clip(f.exit.detail) : null },
  };
  return fitLine(receipt);
}

/** A receipt whose line would still be too long (many long file names) gives up its lists first. */
function fitLine(receipt: Receipt): Receipt {
  if (JSON.stringify(receipt).length <= RECEIPT_LIMITS.line) return receipt;
  return { ...receipt, changed_files: [], denials: receipt.denials.slice(0, 1) };
}

/** The totals a run's receipts add up to, as status.json counts them: what a resumed run counts as already spent. */
export function sumReceipts(receipts: readonly Receipt[]): StatusTotals {
  const t = emptyTotals();
  // Each receipt is the worker's call, plus the reviewer's when the iteration was reviewed.
  const calls = receipts.flatMap((r) => (r.review ? [r, r.review] : [r]));
  for (const c of calls) {
    t.calls += 1;
    if (c.cost.usd !== null) t.cost_usd += c.cost.usd;
    if (c.cost.source === 'estimated') t.cost_estimated = true;
    if (c.cost.source === 'unknown') t.cost_unknown_calls += 1;
    t.input_tokens += c.tokens.input;
    t.output_tokens += c.tokens.output;
    t.cache_read_input_tokens += c.tokens.cache_read;
    t.cache_creation_input_tokens += c.tokens.cache_write;
    t.num_turns += c.turns;
  }
  return t;
}

const STATUS_WEIGHT: Record<RateLimitWindow['status'], number> = { allowed: 0, warning: 1, rejected: 2 };

/**
 * The one window a receipt names among those a call reported: the closest to running out
 * (rejected before warning before allowed, then the most used), since that is the window
 * that explains a park, a stop or a usage limit after this iteration.
 */
export function receiptRateLimit(windows: readonly RateLimitWindow[] | undefined): ReceiptRateLimit | undefined {
  let tightest: RateLimitWindow | undefined;
  for (const w of windows ?? []) {
    if (
      !tightest ||
      STATUS_WEIGHT[w.status] > STATUS_WEIGHT[tightest.status] ||
      (STATUS_WEIGHT[w.status] === STATUS_WEIGHT[tightest.status] && (w.usedPercent ?? -1) > (tightest.usedPercent ?? -1))
    )
      tightest = w;
  }
  if (!tightest) return undefined;
  return {
    window: tightest.kind,
    status: tightest.status,
    resets_at: tightest.resetsAt !== undefined ? isoTimestamp(tightest.resetsAt) : null,
    used_percent: tightest.usedPercent ?? null,
  };
}
