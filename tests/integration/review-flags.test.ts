// The reviewer's flags refused before anything runs: what is wrong, what is accepted, exit 2;
// and what --dry-run says of the reviewer's call.
import { describe, expect, it } from 'vitest';
import { agentCli } from '../helpers/agent-clis.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
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

  it("--dry-run describes the reviewer's call (agent, model, read-only mode, command) without making it", async () => {
    const dir = ralphProject({ ralphrc: `CODEX_CMD="${agentCli('codex')}"\n` });
    writeMockScript(dir, []);
    const r = await ralph(
      ['--dry-run', '--review', '--backend', 'mock', '--review-backend', 'codex', '--review-model', 'gpt-5.1-codex', '--max-loops', '2'],
      dir,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((line) => line.includes('[DRY RUN]'));
    expect(lines.filter((line) => line.includes('Would execute:'))).toHaveLength(2);
    const reviewer = lines.filter((line) => line.includes('reviewer'));
    expect(reviewer).toHaveLength(2);
    expect(reviewer[0]).toContain('Before a complete end, the reviewer: Codex CLI, model gpt-5.1-codex, in a fresh session, read-only: --sandbox read-only');
    expect(reviewer[1]).toMatch(/The reviewer would execute: \S*codex exec --json .*--sandbox read-only -m gpt-5\.1-codex/);
    expect(reviewer[1]).not.toContain('dangerously');
  });
});
