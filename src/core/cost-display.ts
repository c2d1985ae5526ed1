/**
 * How a cost reads to a user. A call whose agent reported tokens but whose cost is known to
 * nobody (no list price for its model) is counted apart: adding it as $0 would show a run of
 * such calls as free.
 */

/** "$0.0313" below a dollar, "$12.34" above. */
export function formatUsd(value: number): string {
  return value < 1 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export interface CostFigures {
  usd: number;
  /** Part of the figure is an estimate from tokens and list prices. */
  estimated: boolean;
  /** Calls whose cost is unknown (tokens, but no price). */
  unknownCalls: number;
}

export function describeCost(c: CostFigures): string {
  const known = c.estimated ? `${formatUsd(c.usd)} (estimated)` : formatUsd(c.usd);
  if (c.unknownCalls === 0) return known;
  const unknown = `unknown for ${c.unknownCalls} call${c.unknownCalls === 1 ? '' : 's'} (no price known for the model)`;
  return c.usd === 0 ? unknown : `${known} + ${unknown}`;
}

/** A call's cost is unknown when it used tokens and no cost came with them. */
export function isCostUnknown(cost: unknown, usage: { inputTokens: number; outputTokens: number } | undefined): boolean {
  return cost === undefined && usage !== undefined && usage.inputTokens + usage.outputTokens > 0;
}
