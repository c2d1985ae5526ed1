import type { RateLimitWindow } from '../agent-result.js';
import type { CircuitState } from '../core/circuit-breaker.js';
import type { ExitSignals } from '../core/exit-signals.js';
import type { RateState } from '../core/rate-limiter.js';
import type { Analysis } from '../core/response-analyzer.js';
import { emptyTotals, type StatusIteration, type StatusReview, type StatusTotals, type StatusVerify, type StatusWaiting } from '../core/status-model.js';

/** Everything a running loop knows about itself; persisted piecewise by the store, shown through `status` events (as a snapshot). */
export interface RunState {
  loop: number;
  startedAt: number;
  circuit: CircuitState;
  signals: ExitSignals;
  rate: RateState;
  totals: StatusTotals;
  errorHistory: string[][];
  lastAnalysis?: Analysis;
  lastIteration?: StatusIteration;
  sessionId?: string;
  lastAction: string;
  status: string;
  exitReason: string;
  exitCode: number | null;
  message: string;
  waiting: StatusWaiting | null;
  verify: StatusVerify | null;
  /** Something changed in this run (files, commits, ticked tasks): completion needs it. */
  workInRun: boolean;
  /** The subscription windows the agent's calls reported, the latest state of each. */
  quotaWindows: RateLimitWindow[];
  /** The reviewer pass (--review), as status.json shows it; null without one. */
  review: StatusReview | null;
  /** The findings of a rejected review, for the next worker call's prompt; cleared once a call took them. */
  reviewFindings?: string[];
}

export function newRunState(startedAt: number, circuit: CircuitState, signals: ExitSignals, rate: RateState): RunState {
  return {
    loop: 0,
    startedAt,
    circuit,
    signals,
    rate,
    totals: emptyTotals(),
    errorHistory: [],
    lastAction: 'starting',
    status: 'running',
    exitReason: '',
    exitCode: null,
    message: '',
    waiting: null,
    verify: null,
    workInRun: false,
    quotaWindows: [],
    review: null,
  };
}
