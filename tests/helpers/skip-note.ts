/**
 * One line on stderr for tests that skip because this machine lacks something (a browser,
 * bubblewrap): what is missing and what to install. The summary counts the skipped tests; this
 * says why. Returns the reason, for `describe.skipIf(reason !== undefined)`.
 */
export function skipNote(what: string, reason: string | undefined): string | undefined {
  if (reason !== undefined) console.warn(`Skipping ${what}: ${reason}`);
  return reason;
}
