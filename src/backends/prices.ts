/**
 * List prices of the models Ralph's agents commonly run, in USD per million tokens, used to
 * estimate a call's cost when the agent reports tokens but no cost. Estimates only: a plan,
 * a discount or a price change makes the real bill differ, and every figure made from this
 * table is shown as estimated. Update a row when a vendor changes its list price.
 *
 * `cachedInput` is the price of input tokens read from the provider's prompt cache;
 * `cacheWrite` (where a vendor charges for it) of input tokens written to it.
 */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
  cacheWrite?: number;
}

export const PRICES_AS_OF = '2026-11';

/** Keyed by model name without a provider prefix; a dated or suffixed name matches its longest listed prefix. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-codex': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5.1-codex': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5.1-codex-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  // GPT-5.4 and 5.5 as listed on OpenAI's pricing page in mid 2026 (standard tier, prompts up to 272K tokens).
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25 },
  'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Google
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
  'gemini-3-pro': { input: 2, cachedInput: 0.2, output: 12 },
  // Gemini 3 previews as listed on Google's Gemini API pricing page in mid 2026 (text, prompts up to 200K tokens).
  'gemini-3-flash': { input: 0.5, cachedInput: 0.05, output: 3 },
  'gemini-3.1-pro': { input: 2, cachedInput: 0.2, output: 12 },
  'gemini-3.1-flash-lite': { input: 0.25, cachedInput: 0.025, output: 1.5 },
  // What Gemini CLI 0.61 runs when no model is set ("auto"): Gemini 3.8 Flash for the work, 3.5 Flash Lite
  // for its own routing calls, 3.5 Flash where 3.8 is not offered; as Google lists them in late 2026.
  'gemini-3.8-flash': { input: 0.75, cachedInput: 0.075, output: 3.75 },
  'gemini-3.5-flash': { input: 1.5, cachedInput: 0.15, output: 9 },
  'gemini-3.5-flash-lite': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  // Anthropic (OpenCode can run these too)
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5, cacheWrite: 1.25 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75 },
  'claude-opus-4-5': { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25 },
};
