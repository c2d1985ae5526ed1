import { closeSync, existsSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendToFile, closeAppendFile } from '../../../src/state/append-files.js';
import { appendLine } from '../../../src/state/json-file.js';
import { rotateLogIfNeeded } from '../../../src/state/log-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** How many of this process's descriptors are open on `path`. */
function descriptorsOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

describe('logs kept open for appending', () => {
  it('a line is in the file as soon as it is appended, before the log is ever closed', () => {
    const log = join(tempDir(), 'session.jsonl');
    appendLine(log, '{"event":"a"}');
    expect(readFileSync(log, 'utf8')).toBe('{"event":"a"}\n');
    appendLine(log, '{"event":"b"}');
    expect(readFileSync(log, 'utf8')).toBe('{"event":"a"}\n{"event":"b"}\n');
    closeAppendFile(log);
  });

  it.runIf(existsSync('/proc/self/fd'))('many lines go through one descriptor, not one open per line', () => {
    const log = join(tempDir(), 'ralph.log');
    for (let i = 0; i < 20; i += 1) appendLine(log, `line ${i}`);
    expect(descriptorsOn(log)).toBe(1);
    closeAppendFile(log);
    expect(descriptorsOn(log)).toBe(0);
  });

  it('a log removed while open is created again, with its directory, at the next line', () => {
    const dir = tempDir();
    const log = join(dir, 'logs', 'metrics.jsonl');
    appendLine(log, 'first');
    rmSync(join(dir, 'logs'), { recursive: true });
    appendLine(log, 'second');
    expect(readFileSync(log, 'utf8')).toBe('second\n');
    closeAppendFile(log);
  });

  it.runIf(existsSync('/proc/self/fd'))('a descriptor closed behind its back is opened again at the next line', () => {
    const log = join(tempDir(), 'session.jsonl');
    appendLine(log, 'first');
    const fd = readdirSync('/proc/self/fd').find((n) => {
      try {
        return readlinkSync(`/proc/self/fd/${n}`) === log;
      } catch {
        return false;
      }
    });
    closeSync(Number(fd));
    appendLine(log, 'second');
    expect(readFileSync(log, 'utf8')).toBe('first\nsecond\n');
    closeAppendFile(log);
  });

  it('after rotation the next line starts the new log; the rotated one keeps only the old lines', () => {
    const log = join(tempDir(), 'ralph.log');
    appendLine(log, 'old');
    expect(rotateLogIfNeeded(log, 4)).toBe(true);
    appendLine(log, 'new');
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('old\n');
    expect(readFileSync(log, 'utf8')).toBe('new\n');
    closeAppendFile(log);
  });

  it('another writer appending to the same log keeps its lines whole, in order', () => {
    const log = join(tempDir(), 'ralph.log');
    appendToFile(log, 'ours 1\n');
    writeFileSync(log, 'theirs\n', { flag: 'a' });
    appendToFile(log, 'ours 2\n');
    expect(readFileSync(log, 'utf8')).toBe('ours 1\ntheirs\nours 2\n');
    closeAppendFile(log);
  });

  it('a process writing to many logs keeps only a few open', () => {
    const dir = tempDir();
    const logs = Array.from({ length: 20 }, (_, i) => join(dir, `log-${i}.jsonl`));
    for (const log of logs) appendToFile(log, 'x\n');
    for (const log of logs) appendToFile(log, 'y\n');
    for (const log of logs) expect(readFileSync(log, 'utf8')).toBe('x\ny\n');
    if (existsSync('/proc/self/fd')) expect(logs.reduce((n, log) => n + descriptorsOn(log), 0)).toBeLessThanOrEqual(8);
    for (const log of logs) closeAppendFile(log);
  });
});
