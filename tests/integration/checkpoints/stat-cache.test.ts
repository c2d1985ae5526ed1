import { lstatSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statKey } from '../../../src/checkpoints/capture/index-stats.js';
import { StatCache } from '../../../src/checkpoints/capture/stat-cache.js';
import { tempDir } from '../../helpers/temp-dir.js';

const LATER = Date.now() + 60_000;

/** The stat cache between checkpoints of one run, and when another process rewrote it in between. */
describe('StatCache', () => {
  it('gives back what it saved on the next load, and forgets files not seen since', () => {
    const dir = tempDir('ralph-stat-cache-');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const a = lstatSync(join(dir, 'a.txt'), { bigint: true });
    const b = lstatSync(join(dir, 'b.txt'), { bigint: true });

    const first = StatCache.load(dir);
    first.remember('a.txt', a, 'oid-a');
    first.remember('b.txt', b, 'oid-b');
    first.rememberTree('tree-input', 'oid-tree');
    first.save(LATER, 'tmp-1');

    const second = StatCache.load(dir);
    expect(second.lookup('a.txt', statKey(a))).toEqual({ oid: 'oid-a', mode: Number(a.mode) });
    expect(second.lookup('a.txt', 'other-stat-data')).toBeUndefined();
    expect(second.tree('tree-input')).toBe('oid-tree');
    second.save(LATER, 'tmp-2');

    // Only a.txt was seen by the second capture: b.txt is gone from the cache.
    const third = StatCache.load(dir);
    expect(third.lookup('a.txt', statKey(a))?.oid).toBe('oid-a');
    expect(third.lookup('b.txt', statKey(b))).toBeUndefined();
  });

  it('is not written again when every entry was found as it was, and is when one turned racy or went unseen', () => {
    const dir = tempDir('ralph-stat-cache-');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const a = lstatSync(join(dir, 'a.txt'), { bigint: true });
    const b = lstatSync(join(dir, 'b.txt'), { bigint: true });
    const path = join(dir, 'stat-cache.json');
    const first = StatCache.load(dir);
    first.remember('a.txt', a, 'oid-a');
    first.remember('b.txt', b, 'oid-b');
    first.save(LATER, 'tmp-1');
    const written = lstatSync(path).ino;

    const same = StatCache.load(dir);
    same.lookup('a.txt', statKey(a));
    same.lookup('b.txt', statKey(b));
    same.save(LATER + 1_000, 'tmp-2');
    expect(lstatSync(path).ino).toBe(written);

    // A clock that reads earlier than b.txt's change + the racy window: b.txt is no longer trusted.
    const racy = StatCache.load(dir);
    racy.lookup('a.txt', statKey(a));
    racy.lookup('b.txt', statKey(b));
    racy.save(Number(b.mtimeMs) + 1_000, 'tmp-3');
    expect(lstatSync(path).ino).not.toBe(written);
    expect(StatCache.load(dir).lookup('b.txt', statKey(b))).toBeUndefined();
  });

  it('reads the file again when another process replaced it', () => {
    const dir = tempDir('ralph-stat-cache-');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const a = lstatSync(join(dir, 'a.txt'), { bigint: true });
    const mine = StatCache.load(dir);
    mine.remember('a.txt', a, 'oid-mine');
    mine.save(LATER, 'tmp-1');

    const path = join(dir, 'stat-cache.json');
    const theirs = readFileSync(path, 'latin1').replace('oid-mine', 'oid-theirs');
    writeFileSync(path, theirs, 'latin1');
    // A rewrite within the same timestamp tick would look like the file this process wrote.
    utimesSync(path, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    expect(StatCache.load(dir).lookup('a.txt', statKey(a))?.oid).toBe('oid-theirs');
  });
});
