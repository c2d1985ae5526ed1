import * as v from 'valibot';
import { finite, mapOf, neutralValue, record, text } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .response_analysis: the analysis of the latest agent answer, in the
 * original's shape. Ralph only writes it (for people and other tools); the
 * analysis itself is kept as written.
 */
export const responseAnalysisSchema = record(
  {
    loop_number: finite(),
    timestamp: text(),
    output_file: text(),
    output_format: text(),
    analysis: v.fallback(mapOf(v.unknown(), 'is not an object'), () => ({})),
  },
  'not a JSON object',
);

export type ResponseAnalysis = v.InferOutput<typeof responseAnalysisSchema>;

export const RESPONSE_ANALYSIS: RalphDocument<ResponseAnalysis> = {
  path: (p) => p.responseAnalysis,
  schema: responseAnalysisSchema,
  empty: neutralValue(responseAnalysisSchema),
};
