import type { IssuedIds, QueueItem } from './queue-item.js';

/**
 * Item ids name a branch (`ralph/<id>`) and a folder (`.ralph/worktrees/<id>`),
 * so they are short, lower-case and made of letters, digits and dashes only:
 * `t1` for a typed task, `p3` for a PRD task, `gh-12` for issue #12.
 */
export const ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.includes('--');
}

export function githubItemId(issueNumber: number): string {
  return `gh-${issueNumber}`;
}

/** The issue number of a `gh-N` id. */
export function issueNumberOf(id: string): number | undefined {
  const match = /^gh-(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** What else has used ids already: the queue's record of numbers given out, and names in use in the repository. */
export interface UsedIds {
  issued?: IssuedIds;
  /** True for an id whose branch (`ralph/<id>`) or worktree folder already exists. */
  taken?: (id: string) => boolean;
}

/**
 * The next free id with `prefix` (`t` → t1, t2…). A number is never given
 * twice in a repository: not while a higher one is in the queue, not after
 * `clear` (the queue keeps the highest number given), and not while a branch
 * or worktree of that name is left from an earlier item.
 */
export function nextSequentialId(items: readonly Pick<QueueItem, 'id'>[], prefix: 't' | 'p', used: UsedIds = {}): string {
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  let highest = used.issued?.[prefix] ?? 0;
  for (const { id } of items) {
    const match = pattern.exec(id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  let next = highest + 1;
  while (used.taken?.(`${prefix}${next}`)) next += 1;
  return `${prefix}${next}`;
}

/** The sequential ids' highest numbers, raised by `ids` (for the queue's record of what was given out). */
export function raiseIssued(issued: IssuedIds | undefined, ids: readonly string[]): IssuedIds {
  const next: IssuedIds = { ...issued };
  for (const id of ids) {
    const match = /^([tp])(\d+)$/.exec(id);
    if (!match) continue;
    const prefix = match[1] as 't' | 'p';
    next[prefix] = Math.max(next[prefix] ?? 0, Number(match[2]));
  }
  return next;
}

/**
 * For an id that is not numbered by the queue (an issue's `gh-12`) whose branch
 * or worktree is left from an earlier item: the first free name `<id>-2`,
 * `<id>-3`… for the new item's branch and worktree, so it starts fresh and
 * the earlier work stays where it is. Undefined when the plain name is free.
 */
export function freshPlaceName(id: string, taken: (name: string) => boolean): string | undefined {
  if (!taken(id)) return undefined;
  let n = 2;
  while (taken(`${id}-${n}`)) n += 1;
  return `${id}-${n}`;
}

/** An id from any text (the original Ralph's `prd-<slug>` ids): the safe characters, lower-cased, cut short. */
export function sanitizeId(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'item' : slug;
}
