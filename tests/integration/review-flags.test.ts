// The reviewer's flags refused before anything runs: what is wrong, what is accepted, exit 2.
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph } from '../helpers/run-cli.js';

describe('ralph --review flags', () => {
  it.each([
    [['--review', '--review-max', '0'], 'invalid value for --review-max', 'a whole number from 1 to 100'],
    [['--review', '--review-backend', 'nope'], 'invalid value for --review-backend', 'one of claude, codex, gemini, opencode, mock'],
  ])('%j: a clear error, exit 2', async (args, what, accepted) => {
    const dir = ralphProject({ git: false });
    const r = await ralph([...args, '--backend', 'mock', '--max-loops', '1'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(what);
    expect(r.stderr).toContain(accepted);
  });

  it('REVIEW_MAX in .ralphrc is checked the same way', async () => {
    const dir = ralphProject({ git: false, ralphrc: 'REVIEW=true\nREVIEW_MAX=none\n' });
    const r = await ralph(['--backend', 'mock', '--max-loops', '1'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/REVIEW_MAX[\s\S]*a whole number from 1 to 100/);
  });
});
