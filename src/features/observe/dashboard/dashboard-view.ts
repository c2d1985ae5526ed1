/**
 * What the dashboard page is drawn from: one document per update, sent as JSON
 * over server-sent events. Plain data and no imports, so the page's own build
 * (web/dashboard) can name these types without pulling in Node code.
 */

export interface DashboardState {
  takenAt: string;
  /** The project the dashboard shows: its folder's name and its path. */
  project: { name: string; path: string };
  /** Something the page should say above the loops, e.g. a queue file that cannot be read. */
  notice: string | null;
  loops: LoopView[];
}

export interface LoopView {
  /** `main` for the project's own loop, the queue item's id otherwise. */
  id: string;
  title: string;
  /** The queue's word for the item (pending, running, …); null for the project's own loop. */
  queueState: string | null;
  /** With --follow-checks: the pull request's round and checks (`round 2/4, waiting for checks on …`). */
  follow?: string;
  /** Where the loop's files are, relative to the project ('.' for the project itself). */
  location: string;
  /** False when the loop has no `.ralph/status.json` yet. */
  started: boolean;
  /** Files that could not be read, each with what was wrong. */
  problems: string[];
  state: LoopStateView;
  /** How the queue recorded the item's end (null for the project's own loop and unfinished items). */
  outcome: QueueOutcomeView | null;
  call: RunningCallView | null;
  circuit: CircuitView;
  verify: VerifyView | null;
  totals: TotalsView;
  /** Oldest first; at most DASHBOARD_CHART_POINTS. */
  iterations: IterationPoint[];
  /** The most recent iterations' summaries, newest first. */
  recent: RecentIteration[];
  /** The reviewer pass (--review) as status.json has it; null without one. */
  review: ReviewView | null;
}

/** The reviewer pass (--review), as status.json has it. */
export interface ReviewView {
  backend: string;
  reviews: number;
  rejected_in_a_row: number;
  max_rejected: number;
  last_verdict: string;
  findings: string[];
  cost_usd: number;
}

/** The colour of the loop's badge: not started, running, waiting, ended well, ended badly. */
export type LoopTone = 'idle' | 'live' | 'warn' | 'good' | 'bad';

export interface LoopStateView {
  /** status.json's word for the loop (running, success, error, completed, …). */
  status: string;
  /**
   * What the badge says: the status, except while the loop runs, where an iteration's verdict
   * (success, error) is not the loop's state, and while it waits (for an answer, for a limit).
   */
  label: string;
  tone: LoopTone;
  /** What the running loop waits for, in words; null when it waits for nothing. */
  waitingFor: string | null;
  exitReason: string;
  exitCode: number | null;
  message: string;
  lastAction: string;
  loopCount: number;
  callsThisHour: number;
  maxCallsPerHour: number;
  /** true: the loop process is alive; false: it is gone without finishing; null: finished or unknown. */
  alive: boolean | null;
  finished: boolean;
  backend: string;
  sessionId: string | null;
  startedAt: string | null;
  updatedAt: string;
  waiting: { reason: string; until: string | null; message: string } | null;
  /** The subscription windows the agent reported, one line each (window, status, reset); [] for none. */
  windows: string[];
}

export interface QueueOutcomeView {
  /** The queue's word: completed, failed, skipped. */
  state: string;
  exitReason: string;
  exitCode: number | null;
  costUsd: number | null;
  iterations: number | null;
  branch: string;
  prUrl: string;
  /** Why it failed or was skipped, when the queue says. */
  error: string;
  finishedAt: string;
  /** False when its worktree was removed: what is shown is the queue's record only. */
  worktreeKept: boolean;
}

export interface RunningCallView {
  tool: string | null;
  toolUses: number;
  elapsedSeconds: number;
  startedAt: string | null;
  lastOutput: string;
}

export interface CircuitView {
  state: string;
  reason: string;
  noProgress: number;
  sameError: number;
  totalOpens: number;
  /** Transitions, newest first. */
  history: Array<{ at: string; loop: number; from: string; to: string; reason: string }>;
}

export interface VerifyView {
  command: string;
  status: string;
  attempt: number;
  maxAttempts: number;
  /** The gate waits for an answer (retry, skip or abort). */
  paused: boolean;
  lastPassed: boolean | null;
  /** The end of the last failed run's output. */
  lastFailureTail: string;
}

export interface TotalsView {
  costUsd: number;
  costEstimated: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  calls: number;
}

export interface IterationPoint {
  /** 1-based position in the metrics file: the chart's x axis (loop numbers restart with each run). */
  index: number;
  loop: number;
  durationSec: number;
  costUsd: number;
  tokens: number;
  cumulativeCostUsd: number;
  cumulativeTokens: number;
  /** null: no verify command ran in that iteration. */
  verifyPassed: boolean | null;
  outcome: string;
}

export interface RecentIteration {
  iteration: number;
  result: string;
  success: boolean | null;
  summary: string;
  filesChanged: number | null;
  verifyPassed: boolean | null;
  durationSec: number | null;
}
