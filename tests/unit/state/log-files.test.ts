import { existsSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGS_DIR_MAX_BYTES,
  LOG_ROTATE_BYTES,
  LOG_ROTATE_KEEP,
  OUTPUT_LOGS_KEEP,
  outputLogPath,
  pruneOutputLogs,
  rotateLogIfNeeded,
} from '../../../src/state/log-files.js';
import { fileTimestamp } from '../../../src/core/time-format.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('rotateLogIfNeeded (U§13.8 log rotation)', () => {
  it('rotates at 10 MB into 4 generations by default', () => {
    expect(LOG_ROTATE_BYTES).toBe(10 * 1024 * 1024);
    expect(LOG_ROTATE_KEEP).toBe(4);
  });

  it('below the size, nothing happens', () => {
    const dir = tempDir();
    const log = join(dir, 'ralph.log');
    writeFileSync(log, 'abc');
    expect(rotateLogIfNeeded(log, 4)).toBe(false);
    expect(readFileSync(log, 'utf8')).toBe('abc');
    expect(existsSync(`${log}.1`)).toBe(false);
  });

  it('at the size, the log moves to .1', () => {
    const dir = tempDir();
    const log = join(dir, 'ralph.log');
    writeFileSync(log, 'abcd');
    expect(rotateLogIfNeeded(log, 4)).toBe(true);
    expect(existsSync(log)).toBe(false);
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('abcd');
  });

  it('repeated rotation keeps exactly .1 to .4 with the content shifted', () => {
    const dir = tempDir();
    const log = join(dir, 'ralph.log');
    for (let gen = 1; gen <= 7; gen += 1) {
      writeFileSync(log, `generation ${gen}`);
      expect(rotateLogIfNeeded(log, 5)).toBe(true);
    }
    expect(readdirSync(dir).sort()).toEqual(['ralph.log.1', 'ralph.log.2', 'ralph.log.3', 'ralph.log.4']);
    expect([1, 2, 3, 4].map((i) => readFileSync(`${log}.${i}`, 'utf8'))).toEqual(['generation 7', 'generation 6', 'generation 5', 'generation 4']);
  });

  it('a gap in the generations is handled', () => {
    const dir = tempDir();
    const log = join(dir, 'ralph.log');
    writeFileSync(`${log}.2`, 'old two');
    writeFileSync(log, 'current');
    rotateLogIfNeeded(log, 1);
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('current');
    expect(readFileSync(`${log}.3`, 'utf8')).toBe('old two');
    expect(existsSync(`${log}.2`)).toBe(false);
  });

  it('a missing log is a no-op', () => {
    const dir = tempDir();
    expect(rotateLogIfNeeded(join(dir, 'ralph.log'), 1)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('honours a custom number of generations', () => {
    const dir = tempDir();
    const log = join(dir, 'ralph.log');
    for (let gen = 1; gen <= 4; gen += 1) {
      writeFileSync(log, `g${gen}`);
      rotateLogIfNeeded(log, 1, 2);
    }
    expect(readdirSync(dir).sort()).toEqual(['ralph.log.1', 'ralph.log.2']);
    expect(readFileSync(`${log}.2`, 'utf8')).toBe('g3');
  });
});

describe('outputLogPath', () => {
  const NOW = new Date(2026, 0, 2, 3, 4, 5).getTime();

  it('names the log after the time and loop', () => {
    const dir = tempDir();
    expect(outputLogPath(dir, NOW, 7)).toBe(join(dir, `claude_output_${fileTimestamp(NOW)}_loop7.log`));
    expect(basename(outputLogPath(dir, NOW, 7))).toBe('claude_output_2026-01-02_03-04-05_loop7.log');
  });

  it('never reuses an existing file', () => {
    const dir = tempDir();
    const first = outputLogPath(dir, NOW, 1);
    writeFileSync(first, 'x');
    const second = outputLogPath(dir, NOW, 1);
    writeFileSync(second, 'y');
    const third = outputLogPath(dir, NOW, 1);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(basename(second)).toBe('claude_output_2026-01-02_03-04-05_loop1-2.log');
    expect(basename(third)).toBe('claude_output_2026-01-02_03-04-05_loop1-3.log');
  });
});

describe('pruneOutputLogs', () => {
  const BASE = Date.UTC(2026, 0, 1) / 1000;

  /** Creates `count` output logs (oldest first) with .stderr.log companions and distinct mtimes. */
  function makeLogs(dir: string, count: number): string[] {
    const names: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const name = `claude_output_2026-01-01_00-00-${String(i).padStart(3, '0')}_loop${i}.log`;
      const stderr = name.replace(/\.log$/, '.stderr.log');
      writeFileSync(join(dir, name), `out ${i}`);
      writeFileSync(join(dir, stderr), `err ${i}`);
      utimesSync(join(dir, name), BASE + i, BASE + i);
      names.push(name);
    }
    return names;
  }

  it('keeps the newest 50 output logs and their .stderr.log companions', () => {
    expect(OUTPUT_LOGS_KEEP).toBe(50);
    const dir = tempDir();
    const names = makeLogs(dir, 55);
    writeFileSync(join(dir, 'ralph.log'), 'main log');
    writeFileSync(join(dir, 'metrics.jsonl'), '{}');
    expect(pruneOutputLogs(dir)).toBe(5);
    const left = readdirSync(dir);
    for (const name of names.slice(0, 5)) {
      expect(left).not.toContain(name);
      expect(left).not.toContain(name.replace(/\.log$/, '.stderr.log'));
    }
    for (const name of names.slice(5)) {
      expect(left).toContain(name);
      expect(left).toContain(name.replace(/\.log$/, '.stderr.log'));
    }
    expect(left).toContain('ralph.log');
    expect(left).toContain('metrics.jsonl');
    expect(left).toHaveLength(50 * 2 + 2);
  });

  it("removes every file a call left beside its log (a backend's policy file), and nothing of a neighbour's", () => {
    const dir = tempDir();
    const names = makeLogs(dir, 51);
    const oldest = (names[0] ?? '').replace(/\.log$/, '');
    writeFileSync(join(dir, `${oldest}.policy.toml`), 'rule');
    writeFileSync(join(dir, `${oldest}-2.log`), 'a second call in the same second');
    utimesSync(join(dir, `${oldest}-2.log`), BASE + 100, BASE + 100);
    expect(pruneOutputLogs(dir)).toBe(2);
    const left = readdirSync(dir);
    expect(left).not.toContain(`${oldest}.policy.toml`);
    expect(left).not.toContain(names[0]);
    expect(left).toContain(`${oldest}-2.log`);
  });

  it('goes by modification time, not by name', () => {
    const dir = tempDir();
    const names = makeLogs(dir, 3);
    // Make the alphabetically first log the newest.
    utimesSync(join(dir, names[0] as string), BASE + 100, BASE + 100);
    expect(pruneOutputLogs(dir, 2)).toBe(1);
    const left = readdirSync(dir);
    expect(left).toContain(names[0]);
    expect(left).not.toContain(names[1]);
    expect(left).toContain(names[2]);
  });

  it('does nothing with 50 or fewer logs', () => {
    const dir = tempDir();
    makeLogs(dir, 50);
    expect(pruneOutputLogs(dir)).toBe(0);
    expect(readdirSync(dir)).toHaveLength(100);
  });

  it('a missing directory is a no-op', () => {
    const dir = tempDir();
    expect(pruneOutputLogs(join(dir, 'nope'))).toBe(0);
  });

  it('an output log without a .stderr.log companion is pruned fine', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'claude_output_a.log'), 'a');
    utimesSync(join(dir, 'claude_output_a.log'), BASE, BASE);
    writeFileSync(join(dir, 'claude_output_b.log'), 'b');
    utimesSync(join(dir, 'claude_output_b.log'), BASE + 1, BASE + 1);
    expect(pruneOutputLogs(dir, 1)).toBe(1);
    expect(readdirSync(dir)).toEqual(['claude_output_b.log']);
  });

  it('removes the oldest output logs until the logs directory fits its size, never the newest one nor the other logs', () => {
    expect(LOGS_DIR_MAX_BYTES).toBe(200 * 1024 * 1024);
    const dir = tempDir();
    const names = makeLogs(dir, 6);
    for (const name of names) writeFileSync(join(dir, name), 'x'.repeat(1000));
    for (const name of names) utimesSync(join(dir, name), BASE + names.indexOf(name), BASE + names.indexOf(name));
    writeFileSync(join(dir, 'ralph.log'), 'y'.repeat(1500));
    writeFileSync(join(dir, 'session.jsonl'), 'z'.repeat(500));
    // 6 × (1000 + 5) + 2000 = 8030 bytes; a 4500-byte budget leaves room for two output logs.
    expect(pruneOutputLogs(dir, 50, 4500)).toBe(4);
    const left = readdirSync(dir).sort();
    expect(left).toEqual(['ralph.log', 'session.jsonl', ...names.slice(4).flatMap((n) => [n, n.replace(/\.log$/, '.stderr.log')])].sort());

    // Even far over the budget the newest output log stays.
    expect(pruneOutputLogs(dir, 50, 10)).toBe(1);
    expect(readdirSync(dir)).toContain(names[5]);
    expect(readdirSync(dir)).toContain('ralph.log');
  });

  it('remembers each output log between prunes and trusts it: a log does not change after its call', () => {
    const dir = tempDir();
    const names = makeLogs(dir, 3);
    writeFileSync(join(dir, 'ralph.log'), 'main log');
    const known = new Map<string, { mtimeMs: number; size: number }>();
    expect(pruneOutputLogs(dir, 50, LOGS_DIR_MAX_BYTES, known)).toBe(0);
    expect([...known.keys()].sort()).toEqual(names.flatMap((n) => [n, n.replace(/\.log$/, '.stderr.log')]).sort());

    // What is remembered is not stat'ed again: a remembered age decides which log is the oldest.
    known.set(names[2] as string, { mtimeMs: 0, size: 5 });
    expect(pruneOutputLogs(dir, 2, LOGS_DIR_MAX_BYTES, known)).toBe(1);
    expect(readdirSync(dir)).not.toContain(names[2]);
    expect(known.has(names[2] as string)).toBe(false);
    expect(known.has('ralph.log')).toBe(false);
  });
});
