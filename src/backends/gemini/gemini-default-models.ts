/**
 * The models Gemini CLI 0.61 may run when no model is set: its "auto" mode routes each request
 * to a Flash or Pro model (a preview one where the account may use previews) and makes its own
 * routing calls with a Flash Lite model. Each must have a list price, or a run on the default
 * model would have no cost.
 */
export const GEMINI_CLI_DEFAULT_MODELS = [
  'gemini-3.8-flash',
  'gemini-3.5-flash',
  'gemini-3.5-flash-lite',
  'gemini-3.1-flash-lite',
  'gemini-3-flash-preview',
  'gemini-3-pro-preview',
  'gemini-3.1-pro-preview',
  'gemini-3.1-pro-preview-customtools',
  'gemini-2.5-pro',
] as const;
