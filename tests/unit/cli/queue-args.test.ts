import { describe, expect, it } from 'vitest';
import type { QueueArgs } from '../../../src/cli/queue-args.js';
import { parseRalphArgs } from '../../../src/cli/ralph-args.js';
import { UsageError } from '../../../src/errors.js';

const io = { out: () => undefined, err: () => undefined };

async function parse(...argv: string[]): Promise<QueueArgs | undefined> {
  const args = await parseRalphArgs(['queue', ...argv], '9.9.9', io);
  expect(args?.action).toBe('queue');
  return args?.queue;
}

describe('ralph queue: argv → what the queue command does', () => {
  it.each<[string[], QueueArgs]>([
    [['add', '>>fix :: verify:"npm test"'], { sub: 'add', source: { kind: 'task', line: '>>fix :: verify:"npm test"' }, after: [] }],
    [
      ['add', 'x', '--after', 't1,t2', '--after', 'gh-3', '--priority', 'P0'],
      { sub: 'add', source: { kind: 'task', line: 'x' }, after: ['t1', 't2', 'gh-3'], priority: 0 },
    ],
    [['add', '--prd', 'prd.md', '--verify', 'make test'], { sub: 'add', source: { kind: 'prd', file: 'prd.md' }, after: [], verify: 'make test' }],
    [['add', '--github-issues', '#12, 15,12'], { sub: 'add', source: { kind: 'issues', numbers: [12, 15] }, after: [] }],
    [
      ['add', '--label', 'ralph', '--label', 'easy', '--milestone', 'v2', '--assignee', 'ann', '--repo', 'o/r'],
      { sub: 'add', source: { kind: 'filter', labels: ['ralph', 'easy'], milestone: 'v2', assignee: 'ann' }, after: [], repo: 'o/r' },
    ],
    [['add', '--milestone', '3'], { sub: 'add', source: { kind: 'filter', labels: [], milestone: '3' }, after: [] }],
    [['list', '--json'], { sub: 'list', json: true }],
    [['status'], { sub: 'status', json: false }],
    [['remove', 'gh-12'], { sub: 'remove', id: 'gh-12' }],
    [['clear', '--all'], { sub: 'clear', all: true }],
  ])('%j', async (argv, expected) => {
    expect(await parse(...argv)).toEqual(expected);
  });

  it.each<[string[], RegExp]>([
    [['add'], /nothing to add/],
    [['add', 'x', '--label', 'l'], /choose one source: TASK, --label\/--milestone\/--assignee/],
    [['add', '--github-issues', '0'], /invalid value for --github-issues/],
    [['add', '--github-issues', ''], /invalid value for --github-issues/],
    [['add', 'x', '--priority', 'P10'], /invalid value for --priority/],
    [['add', 'x', '--after', 'a/b'], /not a queue id/],
    [['add', '--prd', 'p.md', '--repo', 'o/r'], /--repo goes with --github-issues or --label/],
    [['remove'], /missing required argument 'id'/],
    [['list', 'extra'], /too many arguments/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('%j is a usage error', async (argv, message) => {
    const error = await parseRalphArgs(['queue', ...argv], '9.9.9', io).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).hint).toMatch(/Run ralph queue( add| remove| list)? --help to see every option\./);
  });
});
