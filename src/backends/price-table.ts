import type { AgentCost, TokenUsage } from '../agent-result.js';
import { MODEL_PRICES, type ModelPrice } from './prices.js';

/**
 * The listed price of a model: an exact name, else the longest listed name it starts with
 * followed by "-" (so "gpt-5-codex-2025-09-15" is priced as gpt-5-codex, never as gpt-5 when
 * gpt-5-codex is listed). A provider prefix ("openai/gpt-5") is ignored.
 */
export function modelPrice(model: string): ModelPrice | undefined {
  const name = model.trim().toLowerCase().replace(/^.*\//, '');
  if (name === '') return undefined;
  const exact = MODEL_PRICES[name];
  if (exact) return exact;
  let best: string | undefined;
  for (const listed of Object.keys(MODEL_PRICES)) {
    if (name.startsWith(`${listed}-`) && (best === undefined || listed.length > best.length)) best = listed;
  }
  return best === undefined ? undefined : MODEL_PRICES[best];
}

/**
 * What a call cost at list prices, from its tokens, for agents that report tokens but no cost.
 * `usage.inputTokens` excludes the tokens read from the cache, as everywhere in Ralph: an
 * adapter whose CLI counts cached tokens inside its input total subtracts them first.
 * Undefined for a model not in the table: no figure beats a wrong one.
 */
export function estimateCost(model: string, usage: TokenUsage): AgentCost | undefined {
  const price = modelPrice(model);
  if (!price) return undefined;
  const perMillion =
    usage.inputTokens * price.input +
    usage.cacheReadInputTokens * price.cachedInput +
    usage.cacheCreationInputTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return { usd: perMillion / 1_000_000, source: 'estimated' };
}
