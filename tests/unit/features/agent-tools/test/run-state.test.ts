import { describe, expect, it } from 'vitest';
import { withTask } from '../../../../../src/features/agent-tools/test/run-state.js';

describe('withTask', () => {
  const prompt = '# Ralph development instructions\n\nWork through the plan.\n';

  it('puts the task above the prompt between markers', () => {
    const text = withTask(prompt, 'Implement user authentication');
    expect(text.startsWith('<!-- ralph test_run: task -->\n## Task\n\nImplement user authentication\n<!-- ralph test_run: end of task -->\n\n# Ralph')).toBe(
      true,
    );
    expect(text.endsWith(prompt)).toBe(true);
  });

  it('replaces the task of an earlier run instead of stacking tasks', () => {
    const twice = withTask(withTask(prompt, 'first task'), 'second task');
    expect(twice).not.toContain('first task');
    expect(twice.match(/## Task/g)).toHaveLength(1);
    expect(twice).toBe(withTask(prompt, 'second task'));
  });

  it('works on an empty prompt', () => {
    expect(withTask('', ' x ')).toBe('<!-- ralph test_run: task -->\n## Task\n\nx\n<!-- ralph test_run: end of task -->\n\n');
  });
});
