import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { RepoContext } from './git-plumbing.js';

/**
 * Git objects written by Ralph itself, as loose objects: the zlib-compressed
 * `<type> <size>\0<content>` under objects/<2 hex>/<38 hex>, named by the SHA-1
 * of that text. A checkpoint writes a handful of small objects; starting a
 * git process for each costs far more than the objects (a fork of this whole
 * process per call), so they are written here the way git writes them: to a
 * temporary file in the same directory, then renamed into place, read-only,
 * without fsync (git's default for loose objects). A name git prunes
 * (`tmp_obj_`) is used for the temporary file, so one a crash leaves is
 * cleaned up by git itself.
 *
 * Only repositories whose objects git writes exactly like this qualify: a
 * repository with another hash function (or two), shared permissions or
 * fsync settings keeps git doing the writing.
 */

export type ObjectType = 'blob' | 'tree' | 'commit';

/** Settings under which git writes objects in a way this writer does not: they leave the writing to git. */
const GIT_ONLY_SETTINGS = /objectformat|compatobjectformat|sharedrepository|fsync/i;

let tempCounter = 0;

export class LooseObjectStore {
  constructor(readonly objectsDir: string) {}

  private pathOf(oid: string): string {
    return join(this.objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  /** True when the object is stored loose (packed objects are not looked for). */
  has(oid: string): boolean {
    return existsSync(this.pathOf(oid));
  }

  /** Writes the object unless it is stored loose already (then only its time is renewed, as git does, so a prune spares it); returns its id. */
  write(type: ObjectType, content: Buffer): string {
    const header = Buffer.from(`${type} ${content.length}\0`, 'latin1');
    const oid = createHash('sha1').update(header).update(content).digest('hex');
    const path = this.pathOf(oid);
    const now = new Date();
    try {
      utimesSync(path, now, now);
      return oid;
    } catch {
      // Not stored loose yet.
    }
    const dir = join(this.objectsDir, oid.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    tempCounter += 1;
    const temp = join(dir, `tmp_obj_ralph_${process.pid}_${tempCounter}`);
    try {
      writeFileSync(temp, deflateSync(Buffer.concat([header, content]), { level: 1 }), { mode: 0o444 });
      renameSync(temp, path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return oid;
  }
}

const stores = new Map<string, LooseObjectStore | null>();

/** The writer for the repository's objects, or null when git must write them (see GIT_ONLY_SETTINGS). */
export function looseObjectStore(ctx: RepoContext): LooseObjectStore | null {
  const known = stores.get(ctx.commonDir);
  if (known !== undefined) return known;
  const objectsDir = join(ctx.commonDir, 'objects');
  let config = '';
  try {
    config = readFileSync(join(ctx.commonDir, 'config'), 'utf8');
  } catch {
    // No config file: git's defaults.
  }
  const store = existsSync(objectsDir) && !GIT_ONLY_SETTINGS.test(config) ? new LooseObjectStore(objectsDir) : null;
  stores.set(ctx.commonDir, store);
  return store;
}

/** A tree object's content: entries sorted as git sorts them (a directory's name as if it ended in '/'); names are binary strings. */
export function treeContent(entries: readonly { mode: string; name: string; oid: string }[]): Buffer {
  const key = (e: { mode: string; name: string }): string => (e.mode === '40000' ? `${e.name}/` : e.name);
  const sorted = [...entries].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  const parts: Buffer[] = [];
  for (const e of sorted) parts.push(Buffer.from(`${e.mode} ${e.name}\0`, 'latin1'), Buffer.from(e.oid, 'hex'));
  return Buffer.concat(parts);
}
