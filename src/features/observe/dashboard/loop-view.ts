import type { CircuitHistoryEntry, CircuitState } from '../../../core/circuit-breaker.js';
import type { Receipt } from '../../../core/receipt.js';
import { emptyTotals, type StatusDocument } from '../../../core/status-model.js';
import type { GateState } from '../../../core/verify-gate.js';
import type { JsonRead } from '../../../state/document-store.js';
import type { ProgressDocument } from '../../../state/documents/progress.js';
import { isFinished } from '../../../ui/monitor-sections.js';
import { quotaWindowLines } from '../../../ui/quota-window-lines.js';
import type { EventRecord } from '../event-log-inspect.js';
import type { IterationMetric, ParsedMetrics } from '../stats.js';
import type {
  CircuitView,
  IterationPoint,
  LoopStateView,
  LoopTone,
  LoopView,
  QueueOutcomeView,
  RecentIteration,
  RunningCallView,
  VerifyView,
} from './dashboard-view.js';
import { recentIterations } from './recent-iterations.js';

/** Points per chart: enough for a day-long run, small enough to send every second. */
export const DASHBOARD_CHART_POINTS = 500;
/** Circuit transitions shown. */
export const DASHBOARD_CIRCUIT_HISTORY = 20;
/** Characters of the last failed verify run's output shown. */
export const DASHBOARD_FAILURE_TAIL = 1500;

/** What one loop's `.ralph/` held when it was read: the input of buildLoopView. */
export interface LoopFiles {
  id: string;
  title: string;
  queueState: string | null;
  /** The pull request's round and checks, when the queue follows them. */
  follow?: string;
  location: string;
  /** The queue's record of how the item ended (queue items only). */
  outcome: QueueOutcomeView | null;
  status: JsonRead<StatusDocument>;
  progress: JsonRead<ProgressDocument>;
  circuit: JsonRead<CircuitState>;
  circuitHistory: JsonRead<CircuitHistoryEntry[]>;
  gate: JsonRead<GateState | undefined>;
  metrics: ParsedMetrics;
  /** The end of the receipts (oldest first): the charts' source once a loop writes them; before, metrics.jsonl. */
  receipts?: readonly Receipt[];
  /** The end of the session recording, oldest first. */
  events: readonly EventRecord[];
  sessionId: string | null;
  /** Whether the process named in status.json still runs (null: finished, or no pid). */
  alive: boolean | null;
  /** Logs that are not regular files (so were not read), each named with what is there. */
  oddLogs: string[];
}

const valueOf = <T>(read: JsonRead<T>): T | undefined => (read.kind === 'ok' ? read.value : undefined);

function problemsOf(files: LoopFiles): string[] {
  const named: Array<[string, JsonRead<unknown>]> = [
    ['status.json', files.status],
    ['progress.json', files.progress],
    ['.circuit_breaker_state', files.circuit],
    ['.circuit_breaker_history', files.circuitHistory],
    ['.verify_gate', files.gate],
  ];
  const problems = named.flatMap(([name, read]) => (read.kind === 'corrupt' ? [`${name}: ${read.reason}`] : []));
  problems.push(...files.oddLogs);
  const skipped = files.metrics.skippedLines.length;
  if (skipped > 0) problems.push(`metrics.jsonl: ${skipped} line${skipped === 1 ? '' : 's'} skipped (not a metrics record)`);
  return problems;
}

type RawState = Omit<LoopStateView, 'label' | 'tone' | 'waitingFor'>;

/** Iteration verdicts status.json carries between two iterations of a running loop. */
const ITERATION_VERDICTS = new Set(['success', 'error']);

/**
 * What the badge says and what the loop waits for. A running loop whose last
 * iteration failed is still running (its status word is that iteration's
 * verdict, "error", until the next one starts); a loop whose gate waits for an
 * answer is waiting, whatever its last message says.
 */
export function describeState(state: RawState, started: boolean, verify: VerifyView | null): Pick<LoopStateView, 'label' | 'tone' | 'waitingFor'> {
  const at = (tone: LoopTone, label: string, waitingFor: string | null = null) => ({ tone, label, waitingFor });
  if (!started) return at('idle', state.status);
  if (state.finished) return at(state.exitCode === 0 ? 'good' : 'bad', state.status);
  if (state.alive === false) return at('bad', state.status);
  if (verify?.paused === true && state.alive === true)
    return at('warn', 'waiting for an answer', `an answer to the verify gate (${verify.command}): retry, skip or abort`);
  if (state.waiting !== null) {
    const until = state.waiting.until ? ` until ${state.waiting.until}` : '';
    return at('warn', state.status, `${state.waiting.reason}${until}: ${state.waiting.message}`);
  }
  if (state.alive === true && ITERATION_VERDICTS.has(state.status)) return at('live', 'running');
  return at(state.status === 'paused' || state.status === 'waiting' ? 'warn' : 'live', state.status);
}

function stateView(doc: StatusDocument | undefined, files: LoopFiles, now: number): RawState {
  if (doc === undefined) {
    // A finished queue item whose worktree is gone: the queue's record says how it ended.
    const record = files.outcome;
    return {
      status: record?.state ?? 'not started',
      exitReason: record?.exitReason ?? '',
      exitCode: record?.exitCode ?? null,
      message: record?.error ?? '',
      lastAction: '',
      loopCount: record?.iterations ?? 0,
      callsThisHour: 0,
      maxCallsPerHour: 0,
      alive: null,
      finished: record !== undefined && record !== null,
      backend: '',
      sessionId: files.sessionId,
      startedAt: null,
      updatedAt: '',
      waiting: null,
      windows: [],
    };
  }
  return {
    status: doc.status,
    exitReason: doc.exit_reason,
    exitCode: doc.exit_code,
    message: doc.message,
    lastAction: doc.last_action,
    loopCount: doc.loop_count,
    callsThisHour: doc.calls_made_this_hour,
    maxCallsPerHour: doc.max_calls_per_hour,
    alive: files.alive,
    finished: isFinished(doc),
    backend: doc.backend,
    sessionId: files.sessionId ?? doc.session_id,
    startedAt: doc.started_at,
    updatedAt: doc.timestamp,
    waiting: doc.waiting ? { reason: doc.waiting.reason, until: doc.waiting.until, message: doc.waiting.message } : null,
    windows: quotaWindowLines(doc.quota_windows, now),
  };
}

/** The agent call under way, when progress.json says one is (and the loop has not finished since). */
function callView(progress: ProgressDocument | undefined, state: LoopStateView, now: number): RunningCallView | null {
  if (progress === undefined || state.finished || progress.status !== 'executing') return null;
  const started = progress.started_at === null ? Number.NaN : Date.parse(progress.started_at);
  const elapsed = Number.isFinite(started) ? Math.max(0, Math.round((now - started) / 1000)) : progress.elapsed_seconds;
  return {
    tool: progress.current_tool,
    toolUses: progress.tool_uses,
    elapsedSeconds: elapsed,
    startedAt: progress.started_at,
    lastOutput: progress.last_output,
  };
}

function circuitView(circuit: CircuitState | undefined, history: readonly CircuitHistoryEntry[]): CircuitView {
  return {
    state: circuit?.state ?? 'CLOSED',
    reason: circuit?.reason ?? '',
    noProgress: circuit?.consecutive_no_progress ?? 0,
    sameError: circuit?.consecutive_same_error ?? 0,
    totalOpens: circuit?.total_opens ?? 0,
    history: history
      .slice(-DASHBOARD_CIRCUIT_HISTORY)
      .reverse()
      .map((h) => ({ at: h.timestamp, loop: h.loop, from: h.from_state, to: h.to_state, reason: h.reason })),
  };
}

function tailOf(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(-max)}`;
}

function verifyView(gate: GateState | undefined): VerifyView | null {
  if (gate === undefined) return null;
  const last = gate.results[gate.results.length - 1];
  const failed = [...gate.results].reverse().find((r) => !r.passed);
  const failureText = failed ? [failed.explanation ?? '', failed.stdout, failed.stderr].filter((t) => t.trim() !== '').join('\n') : '';
  return {
    command: gate.command,
    status: gate.status,
    attempt: gate.attempt,
    maxAttempts: gate.maxAttempts,
    paused: gate.status === 'escalated',
    lastPassed: last ? last.passed : null,
    lastFailureTail: tailOf(failureText.trimEnd(), DASHBOARD_FAILURE_TAIL),
  };
}

/** One iteration as a chart shows it, before the running totals are added. */
type IterationSpend = Pick<IterationPoint, 'loop' | 'durationSec' | 'costUsd' | 'tokens' | 'verifyPassed' | 'outcome'>;

/** The points with their running totals; the last DASHBOARD_CHART_POINTS are kept. */
function withRunningTotals(spends: readonly IterationSpend[]): IterationPoint[] {
  let cost = 0;
  let tokens = 0;
  const points = spends.map((spend, i): IterationPoint => {
    cost += spend.costUsd;
    tokens += spend.tokens;
    return { index: i + 1, ...spend, cumulativeCostUsd: Math.round(cost * 1e6) / 1e6, cumulativeTokens: tokens };
  });
  return points.slice(-DASHBOARD_CHART_POINTS);
}

/** Per-iteration points with running totals, over the whole metrics file. */
export function iterationPoints(metrics: ParsedMetrics): IterationPoint[] {
  const iterations = metrics.entries.filter((e): e is IterationMetric => e.kind === 'iteration');
  return withRunningTotals(
    iterations.map((it) => ({
      loop: it.loop,
      durationSec: it.duration,
      costUsd: it.costUsd,
      tokens: it.inputTokens + it.outputTokens + it.cacheReadTokens + it.cacheCreationTokens,
      verifyPassed: it.verify === null ? null : it.verify.passed,
      outcome: it.outcome,
    })),
  );
}

/** The same points from the receipts: what each iteration cost and took, as the loop recorded it. */
export function receiptPoints(receipts: readonly Receipt[]): IterationPoint[] {
  return withRunningTotals(
    receipts.map((r) => ({
      loop: r.loop,
      durationSec: r.duration_ms / 1000,
      costUsd: r.cost.usd ?? 0,
      tokens: r.tokens.input + r.tokens.output + r.tokens.cache_read + r.tokens.cache_write,
      verifyPassed: r.verify === null ? null : r.verify.passed,
      outcome: r.outcome,
    })),
  );
}

/** The page's view of one loop. Pure: everything read from disk comes in `files`. */
export function buildLoopView(files: LoopFiles, now: number): LoopView {
  const doc = valueOf(files.status);
  const raw = stateView(doc, files, now);
  const verify = verifyView(valueOf(files.gate));
  const started = doc !== undefined || files.outcome !== null;
  const state: LoopStateView = { ...raw, ...describeState(raw, started, verify) };
  const recent: RecentIteration[] = recentIterations(files.events);
  return {
    id: files.id,
    title: files.title,
    queueState: files.queueState,
    ...(files.follow !== undefined ? { follow: files.follow } : {}),
    location: files.location,
    started,
    problems: problemsOf(files),
    state,
    outcome: files.outcome,
    call: callView(valueOf(files.progress), state, now),
    circuit: circuitView(valueOf(files.circuit), valueOf(files.circuitHistory) ?? []),
    verify,
    totals: totalsView(doc, files.outcome),
    iterations: files.receipts !== undefined && files.receipts.length > 0 ? receiptPoints(files.receipts) : iterationPoints(files.metrics),
    recent,
    review: reviewView(doc),
  };
}

function totalsView(doc: StatusDocument | undefined, outcome: QueueOutcomeView | null): LoopView['totals'] {
  const t = doc?.totals ?? emptyTotals();
  return {
    costUsd: doc === undefined ? (outcome?.costUsd ?? 0) : t.cost_usd,
    costEstimated: t.cost_estimated,
    inputTokens: t.input_tokens,
    outputTokens: t.output_tokens,
    cacheReadTokens: t.cache_read_input_tokens,
    cacheCreationTokens: t.cache_creation_input_tokens,
    calls: t.calls,
  };
}

function reviewView(doc: StatusDocument | undefined): LoopView['review'] {
  const r = doc?.review;
  if (!r) return null;
  return {
    backend: r.backend,
    reviews: r.reviews,
    rejected_in_a_row: r.rejected_in_a_row,
    max_rejected: r.max_rejected,
    last_verdict: r.last_verdict,
    findings: [...r.findings],
    cost_usd: r.cost_usd,
  };
}
