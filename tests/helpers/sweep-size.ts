/**
 * Property sweeps and huge inputs come in two sizes: the unit tier runs a smaller one that still
 * crosses the same limits (so `npm run test:unit` stays fast), `npm run fuzz` the full one
 * (RALPH_FULL_SWEEPS=1).
 */
export const FULL_SWEEPS = process.env['RALPH_FULL_SWEEPS'] === '1';

/** `unitTier` in the unit tier, `full` under `npm run fuzz`. */
export function sweepSize<T>(unitTier: T, full: T): T {
  return FULL_SWEEPS ? full : unitTier;
}
