import type { AgentEnd, AgentOutcome, AgentResult } from '../../agent-result.js';

/** One run of an agent CLI: how its process ended and what the agent's reader made of its stdout. */
export interface CliRun<O> {
  end: AgentEnd;
  exitCode: number | undefined;
  /** The signal that ended the process, if one did. */
  signal?: string;
  durationMs: number;
  /** What the agent's reader made of stdout. */
  output: O;
  /** Last part of stderr (bounded). */
  stderrTail: string;
  /** Set when the CLI could not be started. */
  failure?: string;
  /** Retrying cannot help (the command is missing): stop the loop. */
  fatal?: boolean;
  /** Facts worth recording (the argv). */
  details?: Record<string, unknown>;
}

/**
 * The outcome of a run whose CLI did not exit by itself: stopped at its time limit, by Ctrl+C,
 * or never started (`agent` names it in the message). Undefined for a run that exited: what
 * that amounted to is the agent's own classifier's to say.
 */
export function unexitedOutcome(run: CliRun<unknown>, agent: string): AgentOutcome | undefined {
  if (run.end === 'interrupted') return { kind: 'interrupted' };
  if (run.end === 'timeout') return { kind: 'timeout' };
  if (run.end !== 'spawn_failed') return undefined;
  const message = run.failure ?? `${agent} could not be started`;
  return run.fatal ? { kind: 'fatal', message } : { kind: 'failed', message, resetSession: false };
}

/** What every agent's result says of its process, whatever the agent printed: how and when it ended, its stderr. */
export function processFacts(run: CliRun<unknown>): Pick<AgentResult, 'end' | 'exitCode' | 'signal' | 'durationMs' | 'stderrTail' | 'details'> {
  const facts: ReturnType<typeof processFacts> = { end: run.end, exitCode: run.exitCode, durationMs: run.durationMs, stderrTail: run.stderrTail };
  if (run.signal !== undefined) facts.signal = run.signal;
  if (run.details !== undefined) facts.details = run.details;
  return facts;
}
