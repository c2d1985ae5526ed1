import { describe, expect, it } from 'vitest';
import { progressSchema } from '../../../../src/state/documents/progress.js';
import { parseOrReason } from '../../../helpers/parse-document.js';

const normalizeProgress = (value: unknown) => parseOrReason(progressSchema, value);

describe('progress.json schema', () => {
  it('reads the loop shape', () => {
    const doc = normalizeProgress({
      status: 'executing',
      indicator: '⠙',
      elapsed_seconds: 12,
      last_output: 'x',
      timestamp: '2026-01-01 10:00:00',
      loop: 3,
      current_tool: 'Bash: npm test',
      tool_uses: 4,
      started_at: '2026-01-01T10:00:00Z',
    });
    expect(doc).toMatchObject({ status: 'executing', loop: 3, current_tool: 'Bash: npm test', tool_uses: 4, started_at: '2026-01-01T10:00:00Z' });
  });
  it("reads the original's shape, filling what it lacks", () => {
    expect(normalizeProgress({ status: 'executing', indicator: '⠋', elapsed_seconds: 20, last_output: 'hi', timestamp: 't' })).toEqual({
      status: 'executing',
      indicator: '⠋',
      elapsed_seconds: 20,
      last_output: 'hi',
      timestamp: 't',
      loop: null,
      current_tool: null,
      tool_uses: 0,
      started_at: null,
    });
  });
  it.each([[null], [[]], ['executing'], [3]])('%j is corrupt', (value) => {
    expect(typeof normalizeProgress(value)).toBe('string');
  });
  it('gives damaged fields neutral values', () => {
    expect(normalizeProgress({ status: 7, tool_uses: 'many', loop: 'x' })).toMatchObject({ status: 'idle', tool_uses: 0, loop: null });
  });
});
