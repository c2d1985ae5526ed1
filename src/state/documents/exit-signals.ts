import * as v from 'valibot';
import { SIGNAL_WINDOW, emptyExitSignals, type ExitSignals } from '../../core/exit-signals.js';
import { count, flag, integers, lastOnes, listOf, record } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .exit_signals: the original's three lists of loop numbers (required: they
 * are the evidence the exit rules count) plus our `recent` entries and claim
 * counter, which files of the original lack.
 */
const loops = v.pipe(integers('is not a list of loop numbers'), lastOnes<number>(SIGNAL_WINDOW));

const entry = record(
  {
    loop: v.pipe(v.number(), v.integer()),
    exit_signal: flag(),
    explicit: flag(),
    completion: flag(),
    test_only: flag(),
    progress: flag(),
  },
  'is not an object',
);

export const exitSignalsSchema: v.GenericSchema<unknown, ExitSignals> = record(
  {
    test_only_loops: loops,
    done_signals: loops,
    completion_indicators: loops,
    recent: v.fallback(v.pipe(listOf(entry, 'is not a list'), lastOnes(SIGNAL_WINDOW)), () => []),
    unaccepted_claims: count(),
  },
  'not a JSON object',
);

export const EXIT_SIGNALS: RalphDocument<ExitSignals> = { path: (p) => p.exitSignals, schema: exitSignalsSchema, empty: emptyExitSignals };
