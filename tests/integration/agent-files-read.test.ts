// The files Ralph reads on the agent's behalf (its prompt, the fix plan, the task file) lie where
// the agent writes. An agent that turns one into a link to a secret must not get the secret back
// as its next prompt: Ralph stops with exit 1 and names the file, with or without --sandbox.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, type FakeClaude } from '../helpers/run-cli.js';
import { allFiles, bwrapUnavailable, PLANTED_KEY, sandboxWorld } from '../helpers/sandbox-world.js';

const SECRET = PLANTED_KEY.split('\n')[1] as string;
const unavailable = bwrapUnavailable();

/** Nothing of the key reached the agent (its command lines) or anything Ralph wrote or printed. */
function expectKeyNowhere(dir: string, fake: FakeClaude, output: string): void {
  for (const call of fake.calls()) expect(JSON.stringify(call.argv)).not.toContain(SECRET);
  for (const file of allFiles(dir).filter((f) => !f.includes('/.git/'))) {
    if (file.endsWith('.ralph/PROMPT.md') || file.endsWith('.ralph/fix_plan.md')) continue;
    expect(readFileSync(file, 'latin1'), file).not.toContain(SECRET);
  }
  expect(output).not.toContain(SECRET);
}

describe('files Ralph gives the agent are read only from inside the project', () => {
  it('stops with exit 1 when the agent made PROMPT.md a link to ~/.ssh/id_rsa, before a call could carry the key', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell: 'ln -sf "$HOME/.ssh/id_rsa" .ralph/PROMPT.md' }], {
      default: { fixture: 'json-success-tool-use.json' },
    });
    const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const r = await ralph(['--max-loops', '3', '--pause', '0'], dir, env, 60_000);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`The prompt file ${join(dir, '.ralph', 'PROMPT.md')} leads outside the project (to ${join(world.home, '.ssh', 'id_rsa')})`);
    expect(r.stderr).toContain('Put a regular file inside the project in its place');
    expect(fake.calls()).toHaveLength(1);
    expectKeyNowhere(dir, fake, r.stdout + r.stderr);
  });

  it('refuses a task file that is a link out of the project, and a FIFO as the prompt, without waiting', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    symlinkSync(join(world.home, '.ssh', 'id_rsa'), join(dir, 'task.md'));
    const fake = fakeClaude([], { default: { fixture: 'json-success-tool-use.json' } });
    const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const task = await ralph(['run', 'the task', '--task-file', 'task.md', '--max-loops', '1'], dir, env, 60_000);
    expect(task.exitCode).toBe(1);
    expect(task.stderr).toContain(`--task-file ${join(dir, 'task.md')} leads outside the project`);
    expect(fake.calls()).toHaveLength(0);
    expectKeyNowhere(dir, fake, task.stdout + task.stderr);

    const fifoProject = ralphProject();
    execFileSync('rm', [join(fifoProject, '.ralph', 'PROMPT.md')]);
    execFileSync('mkfifo', [join(fifoProject, '.ralph', 'PROMPT.md')]);
    const fifo = await ralph(['--max-loops', '1', '--pause', '0'], fifoProject, env, 60_000);
    expect(fifo.exitCode).toBe(1);
    expect(fifo.stderr).toContain(`The prompt file ${join(fifoProject, '.ralph', 'PROMPT.md')} is not a regular file`);
  });

  describe.skipIf(unavailable !== undefined)(`under --sandbox${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    it('stops with exit 1 when the contained agent made fix_plan.md a link to the key it cannot read', async () => {
      const world = sandboxWorld();
      const dir = ralphProject();
      const fake = fakeClaude(
        [{ fixture: 'json-success-tool-use.json', shell: '(cat "$HOME/.ssh/id_rsa" > read.txt) 2>/dev/null; ln -sf "$HOME/.ssh/id_rsa" .ralph/fix_plan.md' }],
        { default: { fixture: 'json-success-tool-use.json' } },
      );
      const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
      const r = await ralph(['--sandbox', '--sandbox-allow-write', fake.stateDir, '--max-loops', '3', '--pause', '0'], dir, env, 90_000);
      expect(r.stderr).toContain('Sandbox on');
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`The fix plan ${join(dir, '.ralph', 'fix_plan.md')} leads outside the project`);
      expect(readFileSync(join(dir, 'read.txt'), 'utf8')).toBe('');
      expect(fake.calls()).toHaveLength(1);
      expectKeyNowhere(dir, fake, r.stdout + r.stderr);
    });
  });
});
