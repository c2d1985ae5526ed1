import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { pidWindowFrom, processStartTime, readProcessTable } from '../../../src/infra/process-table.js';

const children: Array<{ kill: () => boolean }> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** A process that carries `name=value` in its environment and waits. */
function marked(name: string, value: string): number {
  const child = spawn('sleep', ['30'], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [name]: value }, stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

describe.runIf(process.platform === 'linux')('readProcessTable: the marker', () => {
  it('finds a process by the marker in its environment', () => {
    const pid = marked('RALPH_TABLE_TEST', 'a-1');
    const table = readProcessTable({ name: 'RALPH_TABLE_TEST', value: 'a-1' });
    expect(table.find((e) => e.pid === pid)?.marked).toBe(true);
    expect(table.find((e) => e.pid === process.pid)?.marked).toBe(false);
  });

  it('does not look for it in processes older than the one the marker was given to', () => {
    const pid = marked('RALPH_TABLE_TEST', 'b-1');
    const started = Number(processStartTime(pid));
    const from = (ticks: number) => readProcessTable({ name: 'RALPH_TABLE_TEST', value: 'b-1', notBefore: String(ticks) }).find((e) => e.pid === pid);
    expect(from(started)?.marked).toBe(true);
    expect(from(started + 1)?.marked).toBe(false);
  });
});

describe.runIf(process.platform === 'linux')('readProcessTable: the PID window', () => {
  it('lists only processes started since the first of the window, unless the PIDs may have gone round since', () => {
    const before = marked('RALPH_TABLE_TEST', 'c-1');
    const first = marked('RALPH_TABLE_TEST', 'c-1');
    const window = pidWindowFrom(first);
    expect(window).toBeDefined();
    const after = marked('RALPH_TABLE_TEST', 'c-1');
    const listed = (pidWindow: typeof window) =>
      readProcessTable({ name: 'RALPH_TABLE_TEST', value: 'c-1', ...(pidWindow ? { pidWindow } : {}) })
        .filter((e) => e.marked)
        .map((e) => e.pid);
    expect(listed(window)).toEqual(expect.arrayContaining([first, after]));
    expect(listed(window)).not.toContain(before);
    // A machine that forked more than half of pid_max processes since: every process is looked at.
    expect(listed({ first, forks: -1e12 })).toEqual(expect.arrayContaining([before, first, after]));
  });
});
