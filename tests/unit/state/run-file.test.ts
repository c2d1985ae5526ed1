import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFile, writeRunFile } from '../../../src/state/run-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('run file', () => {
  it('round-trips a run and keeps only the last 20 commands', () => {
    const path = join(tempDir('ralph-run-'), 'run.json');
    const processes = Array.from({ length: 25 }, (_, i) => ({ pid: 1000 + i, startTime: String(i), role: i % 2 ? 'agent' : 'verify' }));
    writeRunFile(path, { pid: 42, startTime: '777', host: 'box', token: '42-0123456789abcdef', watchdogPid: 43, processes });
    expect(readRunFile(path)).toEqual({
      pid: 42,
      startTime: '777',
      host: 'box',
      token: '42-0123456789abcdef',
      watchdogPid: 43,
      processes: processes.slice(-20),
    });
  });

  it('is rewritten in place on each command while it is the file this process wrote, and read back as the latest', () => {
    const path = join(tempDir('ralph-run-'), 'run.json');
    const run = { pid: 42, startTime: '777', host: 'box', token: '42-0123456789abcdef', processes: [{ pid: 1000, startTime: '1', role: 'agent' }] };
    writeRunFile(path, run);
    const inode = statSync(path).ino;
    const later = { ...run, processes: [...run.processes, { pid: 1001, startTime: '2', role: 'verify' }] };
    writeRunFile(path, later);
    expect(statSync(path).ino).toBe(inode);
    expect(readRunFile(path)).toEqual(later);
    // Fewer commands than before: the shorter text is padded in place, and reads the same.
    writeRunFile(path, run);
    expect(statSync(path).ino).toBe(inode);
    expect(readRunFile(path)).toEqual(run);
  });

  const bad: Array<[string, string]> = [
    ['not JSON', '{"pid": 4'],
    ['no token', '{"pid": 4, "start_time": "1", "processes": []}'],
    ['a token that is no token', '{"pid": 4, "start_time": "1", "token": "../../etc", "processes": []}'],
    ['not an object', '[1, 2]'],
  ];
  for (const [name, content] of bad) {
    it(`ignores a run file that is ${name}`, () => {
      const path = join(tempDir('ralph-run-'), 'run.json');
      writeFileSync(path, content);
      expect(readRunFile(path)).toBeUndefined();
    });
  }

  it('drops recorded commands that are not valid PIDs (never signals PID 0, 1 or a group)', () => {
    const path = join(tempDir('ralph-run-'), 'run.json');
    writeFileSync(
      path,
      JSON.stringify({
        pid: 4,
        start_time: '1',
        token: '4-abcdefabcdef',
        processes: [{ pid: 0 }, { pid: 1 }, { pid: -5 }, { pid: 3.5 }, { pid: 'x' }, { pid: 77, start_time: '9', role: 'agent' }],
      }),
    );
    expect(readRunFile(path)?.processes).toEqual([{ pid: 77, startTime: '9', role: 'agent' }]);
  });
});
