import { describe, expect, it } from 'vitest';
import { REGISTRY, emptyRegistry } from '../../../../../src/features/agent-tools/test/registry.js';
import { parseOrReason } from '../../../../helpers/parse-document.js';

const normalizeRegistry = (value: unknown) => parseOrReason(REGISTRY.schema, value);

const entry = { path: '/tmp/ralph-test-a', created_at: 1, used_at: 2, config: { MAX_LOOPS: '3' }, last_run: null, snapshot_count: 0 };

describe('registry.json schema', () => {
  it('reads a valid registry and fills ids from the keys', () => {
    const run = {
      exit_code: 7,
      termination_reason: 'max_loops',
      iterations: 1,
      elapsed_secs: 0.5,
      backend: 'mock',
      session_file: '/s',
      events_count: 6,
      started_at: 9,
    };
    const value = { version: 1, workspaces: { a: { ...entry, last_run: run } }, preserved: { b: { path: '/p', session_file: '/p/s', preserved_at: 3 } } };
    expect(normalizeRegistry(value)).toEqual({
      version: 1,
      workspaces: { a: { id: 'a', ...entry, last_run: run } },
      preserved: { b: { id: 'b', path: '/p', session_file: '/p/s', preserved_at: 3 } },
    });
  });

  it('accepts a registry without preserved sessions', () => {
    expect(normalizeRegistry({ version: 1, workspaces: {} })).toEqual(emptyRegistry());
  });

  it.each([
    [null, 'not a JSON object'],
    [{ version: 2, workspaces: {} }, 'unknown registry version'],
    [{ version: 1, workspaces: [] }, 'not an object'],
    [{ version: 1, workspaces: { a: { ...entry, path: 3 } } }, 'workspaces.a.path is not text'],
    [{ version: 1, workspaces: { a: { ...entry, config: { X: 1 } } } }, 'workspaces.a.config.X is not text'],
    [{ version: 1, workspaces: { a: { ...entry, last_run: { exit_code: 'x' } } } }, 'last_run'],
  ])('reports what is wrong with %j', (value, problem) => {
    expect(normalizeRegistry(value)).toEqual(expect.stringContaining(problem));
  });
});
