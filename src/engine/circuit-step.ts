import { recordIteration, type Transition } from '../core/circuit-breaker.js';
import { claimsCompletion } from '../core/exit-signals.js';
import type { Analysis } from '../core/response-analyzer.js';
import type { LoopRun, Step } from './loop-run.js';
import type { GateRun } from './verify-gate.js';

/** Records a circuit transition in the history and emits it. */
export function announceTransition(s: LoopRun, t: Transition): void {
  s.deps.store.recordCircuitTransition(t, s.state.loop, s.now);
  s.emit({ type: 'circuit.transition', iteration: s.state.loop, transition: t });
}

/** Feeds the iteration to the circuit breaker; an OPEN circuit stops the loop. */
export function updateCircuit(s: LoopRun, loop: number, usable: boolean, analysis: Analysis | undefined, gate: GateRun | undefined): Step {
  const currentErrors = s.state.errorHistory[0] ?? [];
  const previousErrors = s.state.errorHistory[1] ?? [];
  const update = recordIteration(
    s.state.circuit,
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
  s.state.circuit = update.state;
  s.deps.store.saveCircuit(update.state);
  if (update.transition) announceTransition(s, update.transition);
  if (update.state.state === 'OPEN') {
    s.emit({ type: 'circuit.halt', circuit: update.state });
    return { stop: 'circuit_breaker_open', message: update.state.reason };
  }
  if (!usable) s.notice({ code: 'circuit.retry_next' });
  return undefined;
}
