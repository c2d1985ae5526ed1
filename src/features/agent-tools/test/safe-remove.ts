import { lstatSync, rmSync } from 'node:fs';
import { relative, resolve, sep, isAbsolute } from 'node:path';

/**
 * The only way the test tools delete a folder: `target` must lie strictly
 * below `root` once both are resolved, and no component between them may be a
 * symlink (the root included) — a recursive delete that walks through a planted link would remove
 * someone else's files. A target that is itself a symlink is unlinked, never
 * followed. Returns false (and deletes nothing) when the target is refused.
 */
export function removeInside(root: string, target: string): boolean {
  const base = resolve(root);
  const full = resolve(target);
  const rel = relative(base, full);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
  const parts = rel.split(sep);
  let at = base;
  for (const part of ['', ...parts.slice(0, -1)]) {
    if (part !== '') at = `${at}${sep}${part}`;
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      return true; // A missing parent: there is nothing to delete below it.
    }
    if (isLink) return false;
  }
  rmSync(full, { recursive: true, force: true });
  return true;
}
