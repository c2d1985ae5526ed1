import { recordIteration, RECOVERED_MESSAGE, type Transition } from '../core/circuit-breaker.js';
import { claimsCompletion } from '../core/exit-signals.js';
import type { Analysis } from '../core/response-analyzer.js';
import { renderHaltScreen } from '../ui/screens.js';
import type { LoopSession, Step } from './loop-session.js';
import type { GateRun } from './verify-gate.js';

/** Records a circuit transition in the history and the session, and says it in the original's words. */
export function announceTransition(s: LoopSession, t: Transition): void {
  const { logger, recorder, store } = s.deps;
  store.recordCircuitTransition(t, s.run.loop, s.now);
  recorder.record('circuit.transition', { iteration: s.run.loop, from: t.from, to: t.to, reason: t.reason });
  if (t.to === 'OPEN') logger.error(`🚨 CIRCUIT BREAKER OPENED — Reason: ${t.reason}`);
  else if (t.to === 'HALF_OPEN') logger.warn(`⚠️  CIRCUIT BREAKER: Monitoring Mode — Reason: ${t.reason}`);
  else if (t.reason.startsWith('Progress detected')) logger.success(RECOVERED_MESSAGE);
  else logger.success(`✅ CIRCUIT BREAKER: Normal Operation — Reason: ${t.reason}`);
}

/** Feeds the iteration to the circuit breaker; an OPEN circuit stops the loop. */
export function updateCircuit(s: LoopSession, loop: number, usable: boolean, analysis: Analysis | undefined, gate: GateRun | undefined): Step {
  const currentErrors = s.run.errorHistory[0] ?? [];
  const previousErrors = s.run.errorHistory[1] ?? [];
  const update = recordIteration(
    s.run.circuit,
    {
      loop,
      failed: !usable,
      progress: analysis !== undefined && (analysis.hasProgress || claimsCompletion(analysis)),
      verifyFailed: gate !== undefined && !gate.passed && gate.decision !== 'not_run',
      askingQuestions: analysis?.askingQuestions ?? false,
      hasErrors: currentErrors.length > 0,
      errorsRepeat: currentErrors.length > 0 && currentErrors.every((l) => previousErrors.includes(l)),
      permissionDenied: analysis?.hasPermissionDenials ?? false,
    },
    s.now,
    s.limits,
  );
  s.run.circuit = update.state;
  s.deps.store.saveCircuit(update.state);
  if (update.transition) announceTransition(s, update.transition);
  if (update.state.state === 'OPEN') {
    s.deps.logger.print(renderHaltScreen(update.state));
    return { stop: 'circuit_breaker_open', message: update.state.reason };
  }
  if (!usable) s.deps.logger.warn('Execution failed; the next loop retries after the pause');
  return undefined;
}
