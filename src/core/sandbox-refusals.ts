/** What a contained command was refused: a write, a connection, or something else it tried. */
export interface Refusal {
  kind: 'write' | 'network' | 'other';
  /** What was refused, as the sandbox reports it ("deny network-outbound example.com:443 …"). */
  detail: string;
}

/** A violation line of the sandbox runtime ("deny openat /path", "deny network-outbound host:443 (…)") as a refusal. */
export function refusalOf(line: string): Refusal {
  const detail = line.trim().slice(0, 500);
  if (/^deny network/i.test(detail)) return { kind: 'network', detail };
  if (/^deny (openat|open|creat|mkdir|mkdirat|unlink|unlinkat|rename|renameat2?|rmdir|truncate|symlink|link|chmod|chown|utime|file-write)/i.test(detail))
    return { kind: 'write', detail };
  return { kind: 'other', detail };
}

/** The refusals of a run, counted by what was refused, for the summary at its end. */
export class RefusalTally {
  private readonly counts = new Map<string, { refusal: Refusal; count: number }>();

  add(refusal: Refusal): void {
    const key = `${refusal.kind}\0${refusal.detail}`;
    const seen = this.counts.get(key);
    if (seen) seen.count += 1;
    else this.counts.set(key, { refusal, count: 1 });
  }

  total(): number {
    let n = 0;
    for (const { count } of this.counts.values()) n += count;
    return n;
  }

  /** The distinct refusals, most frequent first. */
  entries(): Array<{ refusal: Refusal; count: number }> {
    return [...this.counts.values()].sort((a, b) => b.count - a.count);
  }
}

/** The end-of-run summary: how many refusals, the most frequent few, and how to widen the policy. */
export function summarizeRefusals(tally: RefusalTally, shown = 5): string[] {
  const total = tally.total();
  if (total === 0) return [];
  const entries = tally.entries();
  const lines = [`The sandbox refused ${total} action${total === 1 ? '' : 's'} this run:`];
  for (const { refusal, count } of entries.slice(0, shown)) lines.push(`  ${count}× ${refusal.detail}`);
  if (entries.length > shown) lines.push(`  … and ${entries.length - shown} more (see .ralph/logs/session.jsonl)`);
  const kinds = new Set(entries.map((e) => e.refusal.kind));
  const widen = [...(kinds.has('network') ? ['--sandbox-allow-domain <host>'] : []), ...(kinds.has('write') ? ['--sandbox-allow-write <path>'] : [])];
  if (widen.length > 0) lines.push(`  If the agent needs that, allow it knowingly with ${widen.join(' or ')}.`);
  return lines;
}
