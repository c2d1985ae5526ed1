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
  | 'quotaWindows'
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
  const shown: Omit<Pick<RunState, Shown>, 'rate'> = {
    loop: run.loop,
    startedAt: run.startedAt,
    circuit: run.circuit,
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
    quotaWindows: run.quotaWindows,
    review: run.review,
  };
  return deepFreeze({ ...structuredClone(shown), rate: frozenRate(run.rate) });
}

/**
 * The rate state holds every call of the last hour, and the loop publishes its state several
 * times a call while the rate state changes at most twice: copying it each time made an
 * iteration cost more the more calls the hour held (a 1,000-call bench run: 0.2 → 0.6 ms an
 * iteration in snapshotRun from its start to its end). The loop replaces the rate state, never
 * changes it in place (core/rate-limiter.ts returns new states), so one frozen copy serves every
 * snapshot of the same state.
 */
// Cache: a frozen copy per rate state object (weakly held), shared safely because rate states are never changed in place.
const frozenRates = new WeakMap<RunState['rate'], RunSnapshot['rate']>();

function frozenRate(rate: RunState['rate']): RunSnapshot['rate'] {
  let frozen = frozenRates.get(rate);
  if (frozen === undefined) {
    frozen = deepFreeze(structuredClone(rate));
    frozenRates.set(rate, frozen);
  }
  return frozen;
}
