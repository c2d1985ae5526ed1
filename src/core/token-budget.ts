import type { StatusTotals } from './status-model.js';

/**
 * The tokens a run used, for --max-tokens: input, output, cache reads and cache writes, each as
 * the agent's API counts them. The backends report input without the cached part (Codex counts
 * its cached tokens inside its input; its reader takes them out), so nothing is counted twice.
 */
export function runTokens(t: Pick<StatusTotals, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>): number {
  return t.input_tokens + t.output_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens;
}
