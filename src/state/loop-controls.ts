import { writeFileSync } from 'node:fs';
import { appendHistory, resetCircuit } from '../core/circuit-breaker.js';
import { isoTimestamp } from '../core/time-format.js';
import { applyGateAction, type GateAction, type GateState } from '../core/verify-gate.js';
import { ExitCode, RalphError } from '../errors.js';
import { resetSession } from './agent-session-store.js';
import { loadDocument, readDocument, saveDocument, updateDocument } from './document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from './documents/circuit.js';
import { VERIFY_GATE } from './documents/verify-gate.js';
import type { RalphPaths } from './paths.js';
import { runningLoopPid } from './running-loop.js';

/**
 * The three things a person can ask of a loop from outside it: stop after the
 * current step, answer a paused verify gate, reset the circuit breaker. The
 * CLI flags and the web dashboard both come here, so they cannot drift apart.
 */

export type StopRequest = { sent: true; pid: number } | { sent: false };

/** Leaves the stop request the running loop looks for between steps; nothing to do when no loop runs. */
export function requestLoopStop(paths: RalphPaths, now: number): StopRequest {
  const pid = runningLoopPid(paths);
  if (pid === undefined) return { sent: false };
  writeFileSync(paths.stopRequest, `${isoTimestamp(now)}\n`);
  return { sent: true, pid };
}

/** `sent`: a running loop reads the answer itself; `applied`: the stored gate was changed for the next run. */
export type GateAnswer = { kind: 'sent'; pid: number } | { kind: 'applied'; before: GateState };

/** Answers the verify gate: handed to the running loop, or applied to `.ralph/.verify_gate` under the lock. */
export async function answerVerifyGate(paths: RalphPaths, action: GateAction, warn: (message: string) => void): Promise<GateAnswer> {
  const pid = runningLoopPid(paths);
  if (pid !== undefined) {
    writeFileSync(paths.gateAction, `${action}\n`);
    return { kind: 'sent', pid };
  }
  const read = readDocument(paths, VERIFY_GATE);
  if (read.kind !== 'ok' || read.value === undefined) {
    throw new RalphError(
      read.kind === 'corrupt' ? `.ralph/.verify_gate is corrupt (${read.reason}).` : 'This project has no verify gate state yet.',
      ExitCode.RuntimeError,
      'A verify gate exists once ralph ran with --verify (or VERIFY_COMMAND in .ralphrc).',
    );
  }
  // Applied to the gate as it is under the lock: a loop that ran meanwhile may have moved it on.
  let before: GateState = read.value;
  const { projectDocumentLock } = await import('./project-lock.js');
  await updateDocument(paths, VERIFY_GATE, { warn, lock: projectDocumentLock(paths) }, (current) => {
    before = current ?? before;
    return applyGateAction(before, action);
  });
  return { kind: 'applied', before };
}

function refuseWhileRunning(paths: RalphPaths, what: string): void {
  const pid = runningLoopPid(paths);
  if (pid !== undefined) {
    throw new RalphError(
      `A Ralph loop is running in this project (PID ${pid}); ${what} would be overwritten by it.`,
      ExitCode.RuntimeError,
      "Stop it first with 'ralph --stop' (or Ctrl+C in its terminal), then try again.",
    );
  }
}

/**
 * Runs a change to the loop's state under the project lock, so a loop that
 * starts meanwhile neither runs on the old state nor overwrites the change.
 */
export async function whileNoLoopRuns(paths: RalphPaths, what: string, change: () => void): Promise<void> {
  refuseWhileRunning(paths, what);
  // Loaded here: the lock library is only needed by commands that change state.
  const { acquireProjectLock } = await import('./project-lock.js');
  const lock = await acquireProjectLock(paths, () => undefined);
  try {
    change();
  } finally {
    await lock.release();
  }
}

/** Closes the circuit breaker (recording the transition) and forgets the agent session; refused while a loop runs. */
export async function resetCircuitBreaker(paths: RalphPaths, now: () => number, warn: (message: string) => void): Promise<void> {
  await whileNoLoopRuns(paths, 'the circuit breaker state', () => {
    const at = now();
    const prev = loadDocument(paths, CIRCUIT_STATE, warn, at);
    const update = resetCircuit(prev, at);
    saveDocument(paths, CIRCUIT_STATE, update.state);
    if (update.transition)
      saveDocument(paths, CIRCUIT_HISTORY, appendHistory(loadDocument(paths, CIRCUIT_HISTORY, warn), update.transition, prev.current_loop, at));
    resetSession(paths, 'manual_circuit_reset', prev.current_loop, at, warn);
  });
}
