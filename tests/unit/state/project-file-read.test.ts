import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { readProjectText } from '../../../src/state/project-file-read.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A project and, beside it, a folder standing for the user's home with a key in it. */
function world(): { project: string; key: string } {
  const base = tempDir('ralph-read-');
  const project = join(base, 'project');
  mkdirSync(join(project, '.ralph'), { recursive: true });
  mkdirSync(join(base, 'home', '.ssh'), { recursive: true });
  const key = join(base, 'home', '.ssh', 'id_rsa');
  writeFileSync(key, 'PRIVATE KEY\n');
  return { project, key };
}

function refusal(read: () => unknown): RalphError {
  try {
    read();
  } catch (error) {
    if (error instanceof RalphError) return error;
    throw error;
  }
  throw new Error('the read was not refused');
}

describe('readProjectText: the files Ralph gives the agent', () => {
  it('reads a regular file, and a link that stays inside the project', () => {
    const { project } = world();
    writeFileSync(join(project, '.ralph', 'PROMPT.md'), 'the prompt\n');
    symlinkSync('PROMPT.md', join(project, '.ralph', 'linked.md'));
    expect(readProjectText(project, join(project, '.ralph', 'PROMPT.md'), 'The prompt file')).toBe('the prompt\n');
    expect(readProjectText(project, join(project, '.ralph', 'linked.md'), 'The prompt file')).toBe('the prompt\n');
  });

  it('says nothing is there for a missing file', () => {
    const { project } = world();
    expect(readProjectText(project, join(project, '.ralph', 'PROMPT.md'), 'The prompt file')).toBeUndefined();
  });

  it('refuses a link out of the project, naming the file, with exit 1', () => {
    const { project, key } = world();
    const prompt = join(project, '.ralph', 'PROMPT.md');
    symlinkSync(key, prompt);
    const error = refusal(() => readProjectText(project, prompt, 'The prompt file'));
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      `The prompt file ${prompt} leads outside the project (to ${key}): Ralph reads the files it gives the agent only from inside the project; Ralph does not read it.`,
    );
    expect(error.hint).toContain('Put a regular file inside the project in its place');
  });

  it('refuses a folder on the way that is a link out of the project', () => {
    const { project, key } = world();
    const ralphDir = join(project, 'sub');
    symlinkSync(join(key, '..'), ralphDir);
    expect(refusal(() => readProjectText(project, join(ralphDir, 'id_rsa'), 'The fix plan')).message).toContain('leads outside the project');
  });

  it('refuses a file outside the project, and a link that leads nowhere', () => {
    const { project, key } = world();
    expect(refusal(() => readProjectText(project, key, '--task-file')).message).toContain(`--task-file ${key} is outside the project`);
    const dangling = join(project, '.ralph', 'fix_plan.md');
    symlinkSync('/nonexistent/plan.md', dangling);
    expect(refusal(() => readProjectText(project, dangling, 'The fix plan')).message).toContain('is a symbolic link that leads nowhere');
  });
});
