import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderBackendTable } from '../../../src/backends/backend-table.js';
import { BACKEND_NAMES } from '../../../src/backends/registry.js';

const README = join(import.meta.dirname, '..', '..', '..', 'README.md');
const START = '<!-- backends table: made by renderBackendTable() from src/backends/agents.ts -->\n';
const END = '\n<!-- end of backends table -->';

function readmeTable(): string {
  const text = readFileSync(README, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END, from);
  expect(from).toBeGreaterThan(-1);
  expect(to).toBeGreaterThan(from);
  return text.slice(from + START.length, to);
}

describe('the README table of backends', () => {
  it('is what the registry says each backend supports', () => {
    expect(readmeTable()).toBe(renderBackendTable());
  });

  it('has one row per registered backend', () => {
    const rows = renderBackendTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([a-z]+)` \|/.exec(row)?.[1])).toEqual(BACKEND_NAMES);
  });
});
