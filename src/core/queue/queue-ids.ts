import type { QueueItem } from './queue-item.js';

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

/** The next free id with `prefix` (`t` → t1, t2…); ids of removed items are not reused while higher ones exist. */
export function nextSequentialId(items: readonly Pick<QueueItem, 'id'>[], prefix: 't' | 'p'): string {
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  let highest = 0;
  for (const { id } of items) {
    const match = pattern.exec(id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `${prefix}${highest + 1}`;
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
