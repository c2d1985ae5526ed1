import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { queueSchema } from '../../../src/state/documents/queue.js';

describe('queue.json', () => {
  it('reads its own shape', () => {
    const doc = {
      version: 1,
      items: [{ id: 't1', source: 'task', title: 'x', spec: '>>x', priority: 5, depends_on: [], state: 'pending', created_at: '2026-01-01T00:00:00Z' }],
    };
    expect(v.parse(queueSchema, doc)).toEqual(doc);
  });

  it.each<[string, unknown, RegExp]>([
    [
      'a bad state',
      { version: 1, items: [{ id: 't1', source: 'task', title: 'x', spec: 'x', priority: 5, depends_on: [], state: 'done', created_at: '' }] },
      /items\[0\]\.state is not one of/,
    ],
    [
      'a bad id',
      { version: 1, items: [{ id: 'T 1', source: 'task', title: 'x', spec: 'x', priority: 5, depends_on: [], state: 'pending', created_at: '' }] },
      /items\[0\]\.id is not a queue id/,
    ],
    [
      'a priority out of range',
      { version: 1, items: [{ id: 't1', source: 'task', title: 'x', spec: 'x', priority: 12, depends_on: [], state: 'pending', created_at: '' }] },
      /priority is not a priority/,
    ],
    ['another version', { version: 2, items: [] }, /version is not 1/],
    ['a list', [], /not a JSON object/],
  ])('refuses %s, naming the field', (_name, value, message) => {
    const read = v.safeParse(queueSchema, value);
    expect(read.success).toBe(false);
    if (!read.success) {
      const issue = read.issues[0];
      const where = (issue.path ?? [])
        .map((p) => (typeof p.key === 'number' ? `[${p.key}]` : `.${String(p.key)}`))
        .join('')
        .replace(/^\./, '');
      expect(`${where} ${issue.message}`.trim()).toMatch(message);
    }
  });

  it("maps the original Ralph's queue field by field", () => {
    const original = {
      version: '1.0',
      repository: 'o/r',
      queue: [
        {
          source: 'github',
          id: 'github-12',
          issue_number: 12,
          title: 'Fix login',
          priority: 'P1',
          labels: ['P1'],
          dependencies: [3],
          status: 'processing',
          added_at: 'A',
          started_at: 'S',
          completed_at: null,
          error_message: null,
        },
        {
          source: 'prd',
          id: 'prd-docs-prd-md',
          path: '/p/docs/prd.md',
          title: 'PRD',
          priority: '',
          labels: [],
          dependencies: [],
          status: 'failed',
          added_at: 'B',
          started_at: null,
          completed_at: 'C',
          error_message: 'loop exited non-zero',
        },
      ],
    };
    const doc = v.parse(queueSchema, original);
    expect(doc.version).toBe(1);
    expect(doc.items[0]).toMatchObject({
      id: 'gh-12',
      source: 'github',
      title: 'Fix login',
      priority: 1,
      depends_on: ['gh-3'],
      state: 'running',
      created_at: 'A',
      started_at: 'S',
      github: { repo: 'o/r', number: 12, url: 'https://github.com/o/r/issues/12' },
    });
    expect(doc.items[1]).toMatchObject({
      id: 'prd-docs-prd-md',
      source: 'prd',
      priority: 5,
      state: 'failed',
      finished_at: 'C',
      result: { error: 'loop exited non-zero' },
      prd_file: '/p/docs/prd.md',
    });
  });
});
