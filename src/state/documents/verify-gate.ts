import * as v from 'valibot';
import { record } from './lenient.js';
import { GATE_STATUSES, MAX_GATE_RESULTS, storedTail, type GateState } from '../../core/verify-gate.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .verify_gate: the verify gate between runs. Unlike the dashboard files it is
 * read strictly: a wrong attempt count or result could let unverified work
 * through, so a damaged file is set aside and the gate starts over.
 */
const wholeNumber = (min: number) =>
  v.pipe(v.number(`is not a whole number ≥ ${min}`), v.safeInteger(`is not a whole number ≥ ${min}`), v.minValue(min, `is not a whole number ≥ ${min}`));

const result = record(
  {
    command: v.fallback(v.optional(v.string()), undefined),
    passed: v.boolean('is not a boolean'),
    exitCode: v.nullable(v.pipe(v.number('is not an integer or null'), v.integer('is not an integer or null'))),
    signal: v.fallback(v.nullable(v.string()), null),
    timedOut: v.boolean('is not a boolean'),
    durationMs: v.pipe(v.number('is not a duration'), v.finite('is not a duration'), v.minValue(0, 'is not a duration')),
    stdout: v.pipe(v.fallback(v.string(), ''), v.transform(storedTail)),
    stderr: v.pipe(v.fallback(v.string(), ''), v.transform(storedTail)),
    explanation: v.fallback(v.optional(v.string()), undefined),
    timeoutMs: v.fallback(v.optional(v.pipe(v.number(), v.finite(), v.gtValue(0))), undefined),
    at: v.fallback(v.optional(v.pipe(v.number(), v.finite())), undefined),
  },
  'is not an object',
);

export const gateStateSchema: v.GenericSchema<unknown, GateState> = v.pipe(
  record(
    {
      gateId: v.pipe(v.string('is missing'), v.nonEmpty('is missing')),
      command: v.string('is not a string'),
      attempt: wholeNumber(0),
      maxAttempts: wholeNumber(1),
      results: v.pipe(
        v.array(v.unknown(), 'is not a list'),
        // Older files kept every result; only the last ones count.
        v.transform((items) => items.slice(-MAX_GATE_RESULTS)),
        v.array(result),
      ),
      status: v.picklist(GATE_STATUSES, `is not one of ${GATE_STATUSES.join(', ')}`),
    },
    'the gate state is not a JSON object',
  ),
  // A result stored without its command ran the gate's command.
  v.transform((gate) => ({ ...gate, results: gate.results.map(({ command, ...rest }) => ({ command: command ?? gate.command, ...rest })) })),
);

/** No gate until a verify command ran. */
export const VERIFY_GATE: RalphDocument<GateState | undefined> = { path: (p) => p.gateState, schema: gateStateSchema, empty: () => undefined };
