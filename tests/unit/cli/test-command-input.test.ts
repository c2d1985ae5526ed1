import { describe, expect, it } from 'vitest';
import { readInput } from '../../../src/cli/commands/test-command.js';
import { ToolError } from '../../../src/features/agent-tools/test/tool-error.js';

const files: Record<string, string> = { 'in.json': '{"workspace_id": "a", "limit": 5}', 'list.json': '[1]', 'bad.json': '{' };
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return text;
};

function fails(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).isInputError).toBe(true);
    return (error as ToolError).message;
  }
  throw new Error('expected an error');
}

describe('readInput', () => {
  it('merges flags over the --input object', () => {
    expect(readInput({ tool: 't', strict: false, input: 'in.json', params: { limit: 10 } }, read)).toEqual({ workspace_id: 'a', limit: 10 });
  });

  it('reads stdin for --input -', () => {
    expect(readInput({ tool: 't', strict: false, input: '-', params: {} }, read, () => '{"x": 1}')).toEqual({ x: 1 });
  });

  it('works with flags only', () => {
    expect(readInput({ tool: 't', strict: false, params: { workspace_id: 'b' } }, read)).toEqual({ workspace_id: 'b' });
  });

  it.each([
    ['missing.json', 'cannot read --input missing.json: ENOENT'],
    ['bad.json', 'is not valid JSON'],
    ['list.json', 'must hold one JSON object'],
  ])('says what is wrong with %s', (input, message) => {
    expect(fails(() => readInput({ tool: 't', strict: false, input, params: {} }, read))).toContain(message);
  });
});
