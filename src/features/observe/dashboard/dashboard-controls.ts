import { existsSync } from 'node:fs';
import { GATE_ACTIONS, type GateAction } from '../../../core/verify-gate.js';
import { RalphError } from '../../../errors.js';
import { answerVerifyGate, requestLoopStop, resetCircuitBreaker } from '../../../state/loop-controls.js';
import { ralphPaths } from '../../../state/paths.js';
import type { LoopLocation } from '../loop-files.js';

/** A button of the page, as its POST body names it. */
export type ControlRequest = { action: 'stop' } | { action: 'gate'; answer: GateAction } | { action: 'reset-circuit' };

/** What the page shows after a button: HTTP status, and the words the CLI would print (or its error and hint). */
export interface ControlOutcome {
  status: number;
  ok: boolean;
  message: string;
  hint?: string;
}

/** Reads a POST body into a request; undefined when it names no known control. */
export function parseControlRequest(action: string, body: unknown): ControlRequest | undefined {
  if (action === 'stop' || action === 'reset-circuit') return { action };
  if (action !== 'gate') return undefined;
  const answer = typeof body === 'object' && body !== null && 'answer' in body ? body.answer : undefined;
  const known = GATE_ACTIONS.find((a) => a === answer);
  return known === undefined ? undefined : { action: 'gate', answer: known };
}

/**
 * Carries out a button on one loop through the same code as `ralph --stop`,
 * `ralph --gate-action` and `ralph --reset-circuit`. A refusal those commands
 * would report (a loop still running, no gate yet) comes back as a 409 with
 * the same message and hint.
 */
export async function runControl(loop: LoopLocation, request: ControlRequest, now: () => number, warn: (message: string) => void): Promise<ControlOutcome> {
  if (loop.dir === null)
    return { status: 409, ok: false, message: `The queue item '${loop.id}' has finished and its worktree was removed: there is no loop to control.` };
  const paths = ralphPaths(loop.dir);
  if (!existsSync(paths.dir)) return { status: 409, ok: false, message: `${loop.location} has no .ralph/ directory: no loop ran there yet.` };
  try {
    switch (request.action) {
      case 'stop': {
        const sent = requestLoopStop(paths, now());
        return sent.sent
          ? { status: 200, ok: true, message: `Asked the loop (PID ${sent.pid}) to stop after its current step.` }
          : { status: 409, ok: false, message: 'No Ralph loop is running in this project.' };
      }
      case 'gate': {
        const answer = await answerVerifyGate(paths, request.answer, warn);
        return answer.kind === 'sent'
          ? { status: 200, ok: true, message: `Sent '${request.answer}' to the verify gate of the running loop (PID ${answer.pid}).` }
          : {
              status: 200,
              ok: true,
              message: `Answered '${request.answer}' for the verify gate of '${answer.before.command}' (it was ${answer.before.status}).`,
            };
      }
      case 'reset-circuit':
        await resetCircuitBreaker(paths, now, warn);
        return { status: 200, ok: true, message: 'Circuit breaker reset to CLOSED state.' };
    }
  } catch (error) {
    if (error instanceof RalphError) return { status: 409, ok: false, message: error.message, ...(error.hint !== undefined ? { hint: error.hint } : {}) };
    throw error;
  }
}
