import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { isRecord } from '../../core/guards.js';
import type { RalphPaths } from '../../state/paths.js';
import type { LoopLocation } from './read-loop-files.js';

/** What the dashboard learned from `.ralph/queue.json`: the loops it names, or why it could not tell. */
export interface QueueLoops {
  loops: LoopLocation[];
  notice: string | null;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether `inner` is `outer` or below it, as plain path strings. */
function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/**
 * The folder of a queue item's worktree, only when it is a folder inside the
 * project's `.ralph/` once links are followed: the file is written by another
 * process, and a path leading out of the project is never read from.
 */
function worktreeDir(paths: RalphPaths, worktree: string): string | undefined {
  if (isAbsolute(worktree)) return undefined;
  const dir = resolve(paths.project, worktree);
  if (!isWithin(paths.dir, dir)) return undefined;
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    return isWithin(realpathSync(paths.dir), realpathSync(dir)) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The loops of a queue run, one per item that has a worktree, in the queue's
 * order. No queue file is no queue (no notice); a file that cannot be read or
 * is not a version-1 queue gives no loops and a notice saying why.
 */
export function readQueueLoops(paths: RalphPaths, queueFile = paths.queue): QueueLoops {
  let text: string;
  try {
    text = readFileSync(queueFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { loops: [], notice: null };
    return { loops: [], notice: `.ralph/${basename(queueFile)} cannot be read (${code ?? String(error)}); showing this project's loop only.` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { loops: [], notice: `.ralph/${basename(queueFile)} is not valid JSON; showing this project's loop only.` };
  }
  if (!isRecord(value) || value['version'] !== 1 || !Array.isArray(value['items'])) {
    return { loops: [], notice: `.ralph/${basename(queueFile)} is not a version 1 queue ({"version": 1, "items": [...]}); showing this project's loop only.` };
  }
  const loops: LoopLocation[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>(['main']);
  for (const item of value['items']) {
    if (!isRecord(item)) continue;
    const id = item['id'];
    const worktree = item['worktree'];
    if (typeof worktree !== 'string' || worktree === '') continue;
    if (typeof id !== 'string' || !ID.test(id) || seen.has(id)) {
      skipped.push(typeof id === 'string' ? id : '(no id)');
      continue;
    }
    const dir = worktreeDir(paths, worktree);
    if (dir === undefined) {
      // Not created yet, removed after the item finished, or outside the project.
      continue;
    }
    seen.add(id);
    loops.push({
      id,
      title: typeof item['title'] === 'string' && item['title'] !== '' ? item['title'] : id,
      queueState: typeof item['state'] === 'string' ? item['state'] : 'unknown',
      dir,
      location: relative(paths.project, dir),
    });
  }
  const notice = skipped.length > 0 ? `queue items with a missing, invalid or repeated id are not shown: ${skipped.join(', ')}` : null;
  return { loops, notice };
}
