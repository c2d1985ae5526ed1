import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime, readProcessTable } from '../../../src/infra/process-table.js';

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
