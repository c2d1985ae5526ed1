/**
 * What an agent backend reports about one call, in words that fit any coding-agent CLI. The
 * engine decides from these alone; each backend translates its own output format into them
 * (src/backends/<name>/), so nothing above the backends knows what an agent prints.
 */
import { emptyDigest, type TextDigest } from './core/text-digest.js';

/** How the call ended, as the backend judged it from the agent's output and exit. */
export type AgentOutcome =
  | { kind: 'success' }
  | { kind: 'timeout' }
  | { kind: 'interrupted' }
  /** A plan or subscription limit: waiting until it resets is the only way on. */
  | { kind: 'usage_limit'; message: string; resetAt?: number }
  /** The agent's API was briefly unavailable (overloaded, rate limited): retrying later helps. */
  | { kind: 'api_transient'; status?: number; message: string }
  /** The call failed; `resetSession` when the agent's conversation itself cannot go on. */
  | { kind: 'failed'; message: string; resetSession: boolean }
  /** The agent cannot run at all (missing command, scripted responses used up). */
  | { kind: 'fatal'; message: string }
  /**
   * Credentials or billing: no retry helps, the user must act. `refusedCredentials` when the
   * agent was refused its credentials (so a variable Ralph withheld from it may be the cause).
   */
  | { kind: 'unrecoverable'; message: string; advice: string; refusedCredentials?: boolean };

export type AgentOutcomeKind = AgentOutcome['kind'];

/** How the agent process ended, for the record. */
export type AgentEnd = 'exited' | 'timeout' | 'interrupted' | 'spawn_failed';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

export interface AgentCost {
  usd: number;
  /** The agent reported the cost itself, or the backend estimated it from the tokens. */
  source: 'reported' | 'estimated';
}

/** A tool call the agent was refused: the tool, and for a shell tool the command's first line. */
export interface PermissionDenial {
  tool: string;
  detail?: string;
}

export interface ToolUse {
  name: string;
  /** A short description of the call's main argument (command, path, pattern). */
  argument?: string;
}

/**
 * One subscription window (a plan's 5-hour or weekly allowance) as the agent reported it with a
 * call. `kind` names the window by its duration (five_hour, seven_day, …), never by where the
 * agent listed it; `status` is `warning` once the agent says the window is nearly used up.
 */
export interface RateLimitWindow {
  kind: string;
  status: 'allowed' | 'warning' | 'rejected';
  /** 0-100, when the agent reports it. */
  usedPercent?: number;
  /** Epoch milliseconds, when the agent reports it. */
  resetsAt?: number;
}

/** What the agent said about its own work, when its answer carries such fields. */
export interface SelfReport {
  status?: string;
  exitSignal?: boolean;
  workType?: string;
  filesModified?: number;
  errorCount?: number;
  hasErrors?: boolean;
  completionStatus?: string;
  confidence?: number;
  progressIndicators?: number;
  summary?: string;
}

export interface AgentResult {
  outcome: AgentOutcome;
  end: AgentEnd;
  /** The agent's final message (or its whole answer when it printed plain text). */
  text: TextDigest;
  /** The answer was machine-readable (its text is the agent's result, not free output). */
  structured: boolean;
  /** The agent finished its turn and delivered a final result. */
  complete: boolean;
  /** The backend's own name of the output format, for the record. */
  format: string;
  /** The agent flagged its result as an error, when it says so. */
  reportedError?: boolean;
  /** The agent's own name for how its turn ended, when it gives one. */
  resultKind?: string;
  /** The HTTP status of the API error the agent reported, when it gives one. */
  apiStatus?: number;
  /** Error messages the agent listed besides its text. */
  errors: string[];
  selfReport?: SelfReport;
  usage?: TokenUsage;
  cost?: AgentCost;
  turns?: number;
  sessionId?: string;
  toolUses: number;
  lastToolUse?: ToolUse;
  permissionDenials: PermissionDenial[];
  /** Problems met while reading the agent's output. */
  warnings: string[];
  /** Characters the agent printed. */
  outputChars: number;
  exitCode: number | undefined;
  /** The signal that ended the process, if one did. */
  signal?: string;
  durationMs: number;
  /** Last part of stderr (bounded). */
  stderrTail: string;
  /** The subscription windows the call reported, the latest state of each (absent: none reported). */
  rateLimitWindows?: RateLimitWindow[];
  /** Backend-specific facts worth recording (argv, mock response index, …). */
  details?: Record<string, unknown>;
}

/** What the agent is doing while it runs, for the live view and progress file. */
export type AgentProgress =
  | { kind: 'session_started'; sessionId: string }
  /** A piece of a message that streams in; `text_end` closes it. */
  | { kind: 'text_delta'; text: string }
  | { kind: 'text_end' }
  /** A whole message of the agent (never also sent as deltas). */
  | { kind: 'message'; text: string }
  | { kind: 'tool_use'; tool: string; argument?: string }
  /** A longer task started by a tool (a sub-agent, a background command). */
  | { kind: 'task_started'; tool: string; description: string }
  | { kind: 'task_progress'; description: string }
  | { kind: 'api_retry'; attempt?: number; maxRetries?: number; error?: string; status?: number; delayMs?: number }
  /** `resetsAt` in epoch milliseconds. */
  | { kind: 'usage_limit'; limitType: string; resetsAt?: number }
  /** The agent's turn ended: its answer, or why it failed, and what the turn took. */
  | { kind: 'finished'; isError: boolean; answer?: string; errorLabel: string; reason: string; turns?: number; costUsd?: number; durationMs?: number };

/** A result with no output: the agent never started, or was stopped before it printed anything. */
export function emptyAgentResult(outcome: AgentOutcome, end: AgentEnd, durationMs = 0): AgentResult {
  return {
    outcome,
    end,
    text: emptyDigest(),
    structured: false,
    complete: false,
    format: 'empty',
    errors: [],
    toolUses: 0,
    permissionDenials: [],
    warnings: [],
    outputChars: 0,
    exitCode: undefined,
    durationMs,
    stderrTail: '',
  };
}
