import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_LOG_FLUSH_BYTES, LIVE_LOG_MAX_BYTES } from '../../../src/state/live-log-file.js';
import { LoopStore } from '../../../src/state/loop-store.js';
import { ralphPaths, type RalphPaths } from '../../../src/state/paths.js';
import { addSecretValues } from '../../../src/state/redaction.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A store whose deferred live.log flushes run only when the test says so. */
function liveStore(maxBytes = LIVE_LOG_MAX_BYTES): { store: LoopStore; paths: RalphPaths; runDeferred: () => void } {
  const paths = ralphPaths(tempDir());
  mkdirSync(paths.logsDir, { recursive: true });
  let deferred: Array<() => void> = [];
  const store = new LoopStore(
    paths,
    () => {},
    maxBytes,
    (flush) => deferred.push(flush),
  );
  const runDeferred = (): void => {
    const now = deferred;
    deferred = [];
    for (const flush of now) flush();
  };
  return { store, paths, runDeferred };
}

const read = (path: string): string => readFileSync(path, 'utf8');

describe('live.log', () => {
  it('starts each call over in the file it holds open, and in a new file once the agent replaced it', () => {
    const { store, paths } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog('first call\n');
    store.endLiveLog();
    const inode = statSync(paths.liveLog).ino;
    store.resetLiveLog('=== Loop #2 ===');
    store.appendLiveLog('second call\n');
    store.endLiveLog();
    expect(statSync(paths.liveLog).ino).toBe(inode);
    expect(read(paths.liveLog)).toBe('=== Loop #2 ===\nsecond call\n');

    const precious = join(paths.project, 'precious.txt');
    writeFileSync(precious, 'user data\n');
    renameSync(paths.liveLog, join(paths.project, 'moved.log'));
    symlinkSync(precious, paths.liveLog);
    store.resetLiveLog('=== Loop #3 ===');
    store.appendLiveLog('third call\n');
    store.endLiveLog();
    store.close();
    expect(read(precious)).toBe('user data\n');
    expect(read(join(paths.project, 'moved.log'))).toBe('=== Loop #2 ===\nsecond call\n');
    expect(read(paths.liveLog)).toBe('=== Loop #3 ===\nthird call\n');
  });

  it('never grows past its size: it starts over with a notice and keeps the latest output', () => {
    expect(LIVE_LOG_MAX_BYTES).toBe(10 * 1024 * 1024);
    const { store, paths, runDeferred } = liveStore(1000);
    store.resetLiveLog('=== Loop #1 ===');
    for (let i = 0; i < 500; i += 1) {
      store.appendLiveLog(`event ${String(i).padStart(3, '0')}\n`);
      if (i % 7 === 0) runDeferred();
      expect(statSync(paths.liveLog).size).toBeLessThanOrEqual(1000 + 200);
    }
    store.endLiveLog();
    const text = read(paths.liveLog);
    expect(text).toContain('earlier output of this loop cut');
    expect(text.endsWith('event 499\n')).toBe(true);
  });

  it('measures its size in bytes: wide characters start it over sooner, plain text only past the limit', () => {
    const plain = liveStore(1000);
    plain.store.resetLiveLog('=== Loop #1 ===');
    plain.store.appendLiveLog('a'.repeat(400));
    plain.store.appendLiveLog('b'.repeat(400));
    plain.store.endLiveLog();
    expect(read(plain.paths.liveLog)).toBe(`=== Loop #1 ===\n${'a'.repeat(400)}${'b'.repeat(400)}`);

    const wide = liveStore(1000);
    wide.store.resetLiveLog('=== Loop #1 ===');
    wide.store.appendLiveLog('é'.repeat(400));
    wide.store.appendLiveLog('ü'.repeat(400));
    wide.store.endLiveLog();
    const text = read(wide.paths.liveLog);
    expect(text).toContain('earlier output of this loop cut');
    expect(text.endsWith(`\n${'ü'.repeat(400)}`)).toBe(true);
    expect(text).not.toContain('é');
  });

  it('writes the events of one burst together, once the burst is handled', () => {
    const { store, paths, runDeferred } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog('first\n');
    store.appendLiveLog('second\n');
    expect(read(paths.liveLog)).toBe('=== Loop #1 ===\n');
    runDeferred();
    expect(read(paths.liveLog)).toBe('=== Loop #1 ===\nfirst\nsecond\n');
    store.appendLiveLog('third\n');
    runDeferred();
    expect(read(paths.liveLog)).toBe('=== Loop #1 ===\nfirst\nsecond\nthird\n');
  });

  it('writes at once when a burst outgrows the flush size, so the held text stays small', () => {
    const { store, paths } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < LIVE_LOG_FLUSH_BYTES / line.length; i += 1) store.appendLiveLog(line);
    expect(statSync(paths.liveLog).size).toBe('=== Loop #1 ===\n'.length + LIVE_LOG_FLUSH_BYTES);
  });

  it("writes out everything at the call's end, even if the deferred flush never runs", () => {
    const { store, paths } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog('the last words\n');
    store.endLiveLog();
    expect(read(paths.liveLog)).toBe('=== Loop #1 ===\nthe last words\n');
  });

  it('writes what it holds when a forced exit cannot wait for the call to end', () => {
    const { store, paths } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog('before the exit\n');
    store.flushLiveLog();
    expect(read(paths.liveLog)).toBe('=== Loop #1 ===\nbefore the exit\n');
  });

  it('keeps writing to its own file when live.log is replaced by a link during the call', () => {
    const { store, paths, runDeferred } = liveStore();
    const outside = join(tempDir(), 'outside.txt');
    writeFileSync(outside, 'untouched\n');
    store.resetLiveLog('=== Loop #1 ===');
    renameSync(paths.liveLog, `${paths.liveLog}.moved`);
    symlinkSync(outside, paths.liveLog);
    store.appendLiveLog('agent output\n');
    runDeferred();
    store.endLiveLog();
    expect(read(outside)).toBe('untouched\n');
    expect(read(`${paths.liveLog}.moved`)).toBe('=== Loop #1 ===\nagent output\n');
  });

  it('never appends through a link planted at live.log', () => {
    const { store, paths } = liveStore();
    const outside = join(tempDir(), 'outside.txt');
    writeFileSync(outside, 'untouched\n');
    symlinkSync(outside, paths.liveLog);
    store.appendLiveLog('agent output\n');
    store.endLiveLog();
    expect(read(outside)).toBe('untouched\n');
  });

  it('leaves no temporary file beside live.log', () => {
    const { store, paths } = liveStore(100);
    store.resetLiveLog('=== Loop #1 ===');
    for (let i = 0; i < 20; i += 1) store.appendLiveLog('0123456789\n');
    store.endLiveLog();
    expect(existsSync(paths.liveLog)).toBe(true);
    expect(readdirSync(paths.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('redacts a secret that arrives split across two pieces of output', () => {
    const secret = 'ghp_live0log0split0secret0value';
    addSecretValues([{ name: 'LIVE_LOG_TEST_TOKEN', value: secret }]);
    const { store, paths } = liveStore();
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog(`token: ${secret.slice(0, 12)}`);
    store.appendLiveLog(`${secret.slice(12)} done\n`);
    store.endLiveLog();
    const text = read(paths.liveLog);
    expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:LIVE_LOG_TEST_TOKEN] done');
  });
});
