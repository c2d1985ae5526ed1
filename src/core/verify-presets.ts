/**
 * The verify gate's presets, named the same in `--verify-preset`, VERIFY_PRESET and a task's
 * `:fast` / `:full` / `:extended`: how many attempts, and how long each may take.
 */
export type VerifyPreset = 'fast' | 'full' | 'extended';

/** The presets: `:fast` 1 attempt / 30 s, `:full` 5 / 300 s, `:extended` 10 / 600 s. */
export const VERIFY_PRESETS: Readonly<Record<VerifyPreset, { maxAttempts: number; timeoutSeconds: number }>> = {
  fast: { maxAttempts: 1, timeoutSeconds: 30 },
  full: { maxAttempts: 5, timeoutSeconds: 300 },
  extended: { maxAttempts: 10, timeoutSeconds: 600 },
};
