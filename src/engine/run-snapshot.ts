import type { RunState } from './run-state.js';

/** Read-only all the way down: what a frozen value is to the type checker. */
export type DeepReadonly<T> =
  T extends ReadonlyArray<infer U> ? ReadonlyArray<DeepReadonly<U>> : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** The parts of the run state that watchers see (status.json); the rest only feeds the loop's decisions. */
type Shown =
  | 'loop'
  | 'startedAt'
  | 'circuit'
  | 'rate'
  | 'totals'
  | 'lastIteration'
  | 'sessionId'
  | 'lastAction'
  | 'status'
  | 'exitReason'
  | 'exitCode'
  | 'message'
  | 'waiting'
  | 'verify'
  | 'review';

/** The run state at one moment, as a `status` event carries it. */
export type RunSnapshot = DeepReadonly<Pick<RunState, Shown>>;

function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

/**
 * A frozen copy of what watchers see of the run. The loop goes on changing its state while a
 * subscriber that is slow or asynchronous (a dashboard feed) still holds the event, so the event
 * must not share the state: a copy, frozen so nobody changes it under the others.
 */
export function snapshotRun(run: RunState): RunSnapshot {
  const shown: Pick<RunState, Shown> = {
    loop: run.loop,
    startedAt: run.startedAt,
    circuit: run.circuit,
    rate: run.rate,
    totals: run.totals,
    ...(run.lastIteration !== undefined ? { lastIteration: run.lastIteration } : {}),
    ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
    lastAction: run.lastAction,
    status: run.status,
    exitReason: run.exitReason,
    exitCode: run.exitCode,
    message: run.message,
    waiting: run.waiting,
    verify: run.verify,
    review: run.review,
  };
  return deepFreeze(structuredClone(shown));
}
