import * as v from 'valibot';
import { emptyRateState, type RateState } from '../../core/rate-limiter.js';
import { listOf, record, text } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .rate_limit_state: the calls of the last hour (a call without a usable time
 * is dropped; its tokens are not worth a crash), the wait in progress and the
 * API-retry count, both optional. A wait that says neither why nor until when
 * is dropped, so the loop does not wait on a guess.
 */
const call = record(
  {
    at: v.pipe(v.number(), v.finite()),
    tokens: v.fallback(v.pipe(v.number(), v.gtValue(0)), 0),
    id: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))), undefined),
  },
  'is not an object',
);

const wait = record(
  {
    reason: v.picklist(['rate_limit', 'usage_limit', 'api_retry', 'quota_window']),
    until: v.number(),
    message: text(),
  },
  'is not an object',
);

const apiRetry = record(
  {
    attempts: v.pipe(
      v.number(),
      v.integer(),
      v.transform((attempts) => Math.max(0, attempts)),
    ),
    lastError: text(),
  },
  'is not an object',
);

export const rateStateSchema: v.GenericSchema<unknown, RateState> = record(
  {
    calls: listOf(call, 'is not a list of calls'),
    wait: v.fallback(v.optional(wait), undefined),
    apiRetry: v.fallback(v.optional(apiRetry), undefined),
  },
  'not a JSON object',
);

export const RATE_LIMIT: RalphDocument<RateState> = { path: (p) => p.rateLimit, schema: rateStateSchema, empty: emptyRateState };
