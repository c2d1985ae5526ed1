/**
 * The issues an issue body says it waits for: "depends on #12", "blocked by
 * #3", "requires: #4", also a list ("depends on #12, #13 and #14"). Numbers
 * come back once each, in the order written; an issue never depends on itself.
 */
const PHRASE = /\b(?:depends\s+on|blocked\s+by|requires)\s*:?\s*((?:#\d+)(?:\s*(?:,|and|&)\s*#\d+)*)/gi;

export function dependencyNumbers(body: string, self?: number): number[] {
  const found: number[] = [];
  for (const match of body.matchAll(PHRASE)) {
    for (const ref of (match[1] ?? '').matchAll(/#(\d+)/g)) {
      const n = Number(ref[1]);
      if (Number.isSafeInteger(n) && n > 0 && n !== self && !found.includes(n)) found.push(n);
    }
  }
  return found;
}
