/**
 * Whether the hour's call budget is used up or nearly so: only then does the
 * time the next call slot frees up matter to the person reading the status.
 * "Nearly" is the last tenth of the budget, at least the last call.
 */
export function nearCallLimit(callsMade: number, maxCallsPerHour: number): boolean {
  if (maxCallsPerHour <= 0) return false;
  return callsMade >= maxCallsPerHour - Math.max(1, Math.ceil(maxCallsPerHour / 10));
}
