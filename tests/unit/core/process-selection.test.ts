import { describe, expect, it } from 'vitest';
import { describeProcesses, selectOwnedProcesses, type ProcessEntry } from '../../../src/core/process-selection.js';
import { parseProcStat } from '../../../src/infra/process-table.js';

const p = (pid: number, ppid: number, pgid: number, extra: Partial<ProcessEntry> = {}): ProcessEntry => ({
  pid,
  ppid,
  pgid,
  startTime: `t${pid}`,
  command: 'sh',
  zombie: false,
  marked: false,
  ...extra,
});

// Ralph is 10; the agent 20 leads group 20. 21 is its child; 30 left the group and
// session (setsid) but is still 21's child; 40 was re-parented to init and only
// carries the marker; 50 and 51 are unrelated processes of the same user.
const table: ProcessEntry[] = [
  p(1, 0, 1),
  p(10, 1, 10),
  p(20, 10, 20),
  p(21, 20, 20),
  p(30, 21, 30),
  p(31, 30, 30),
  p(40, 1, 40, { marked: true }),
  p(41, 40, 41),
  p(50, 1, 50, { command: 'sleep' }),
  p(51, 50, 50),
  p(60, 1, 20, { zombie: true }),
];

describe('selectOwnedProcesses', () => {
  const cases: Array<{ name: string; rule: Parameters<typeof selectOwnedProcesses>[1]; owned: number[] }> = [
    {
      name: 'the group, its descendants across sessions, marked processes and theirs',
      rule: { spawned: [], groups: [20], exclude: [10] },
      owned: [20, 21, 30, 31, 40, 41],
    },
    {
      name: 'a spawned process with a matching start time and its descendants',
      rule: { spawned: [{ pid: 30, startTime: 't30' }], groups: [], exclude: [] },
      owned: [30, 31, 40, 41],
    },
    { name: 'a recycled PID (other start time) is not ours', rule: { spawned: [{ pid: 50, startTime: 'other' }], groups: [], exclude: [] }, owned: [40, 41] },
    { name: 'excluded processes and their subtrees stay untouched', rule: { spawned: [], groups: [20], exclude: [21] }, owned: [20, 40, 41] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(selectOwnedProcesses(table, c.rule).map((e) => e.pid)).toEqual(c.owned);
    });
  }

  it('never selects unrelated processes or zombies', () => {
    const pids = selectOwnedProcesses(table, { spawned: [], groups: [20], exclude: [] }).map((e) => e.pid);
    expect(pids).not.toContain(50);
    expect(pids).not.toContain(51);
    expect(pids).not.toContain(60);
    expect(pids).not.toContain(1);
  });

  it('describes processes for the log', () => {
    expect(describeProcesses([p(5, 1, 5, { command: 'sleep' }), p(6, 5, 5)])).toBe('5 (sleep), 6 (sh)');
  });
});

describe('parseProcStat', () => {
  it('reads ppid, group, start time (22nd field) and a command with spaces and parentheses', () => {
    const stat = '4242 (my (odd) cmd) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200 18446744073709551615';
    expect(parseProcStat(stat)).toEqual({ ppid: 17, pgid: 4242, startTime: '987654', command: 'my (odd) cmd', zombie: false });
  });
  it('marks zombies and rejects garbage', () => {
    expect(parseProcStat('7 (x) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0')?.zombie).toBe(true);
    expect(parseProcStat('garbage')).toBeUndefined();
  });
});
