/**
 * "Did you mean …?" for a mistyped command, key or gate: the known word
 * closest to what was typed, when it is close enough to be a typo rather than
 * another word altogether.
 */

/** Edits (insert, delete, substitute) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/**
 * The candidate nearest to `typed` (case ignored), or undefined when none is
 * within a third of the word's length (at least one edit, at most three): a
 * short word with two changes is another word, not a typo.
 */
export function nearestWord(typed: string, candidates: Iterable<string>): string | undefined {
  const word = typed.toLowerCase();
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `; did you mean X?` for a message that ends where the suggestion goes, or '' when nothing is near. */
export function didYouMean(typed: string, candidates: Iterable<string>): string {
  const near = nearestWord(typed, candidates);
  return near === undefined ? '' : `; did you mean ${near}?`;
}
