// `ralph run <task> --review` on the mock agent: the reviewer rejects, the worker fixes, the reviewer
// approves; and `--review-max 1` stops at the first rejection with review_rejected, exit 6. The
// run report (--report) carries the reviews.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { ralph, readJson, statusBlock } from '../helpers/run-cli.js';

const complete = (text: string): string => `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', WORK_TYPE: 'IMPLEMENTATION' })}`;
const review = (verdict: string, ...findings: string[]): string =>
  `---RALPH_REVIEW---\nVERDICT: ${verdict}\nFINDINGS:\n${findings.map((f) => `- ${f}\n`).join('')}---END_RALPH_REVIEW---`;
const SCRIPT = [
  { output: complete('Wrote greet.sh.'), files: { 'greet.sh': 'echo helo\n' } },
  { hat: 'reviewer', output: review('CHANGES_REQUESTED', 'greet.sh prints helo, not hello') },
  { output: complete('Fixed it.'), files: { 'greet.sh': 'echo hello\n' } },
  { hat: 'reviewer', output: review('APPROVED') },
];

describe('ralph run <task> --review (mock agent)', () => {
  it('rejected, then approved: exit 0, the report carries both reviews', async () => {
    const dir = ralphProject();
    writeMockScript(dir, SCRIPT);
    const r = await ralph(
      ['run', 'add greet.sh that prints hello', '--verify', 'grep -q hel greet.sh', '--backend', 'mock', '--pause', '0', '--review', '--report', 'report.json'],
      dir,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('   - greet.sh prints helo, not hello');
    expect(readFileSync(join(dir, 'greet.sh'), 'utf8')).toBe('echo hello\n');
    expect(readJson(join(dir, 'report.json'))).toMatchObject({
      exit_reason: 'project_complete',
      exit_code: 0,
      review: { reviews: 2, last_verdict: 'APPROVED', findings: [] },
    });
  });

  it('--review-max 1: the first rejection stops the run with review_rejected, exit 6, the findings shown', async () => {
    const dir = ralphProject();
    writeMockScript(dir, SCRIPT);
    const r = await ralph(
      [
        'run',
        'add greet.sh that prints hello',
        '--verify',
        'grep -q hel greet.sh',
        '--backend',
        'mock',
        '--pause',
        '0',
        '--review',
        '--review-max',
        '1',
        '--report',
        'report.json',
      ],
      dir,
    );
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('Review rejected: the reviewer asked for changes 1 times in a row (--review-max 1); its last findings:');
    expect(r.stderr).toContain('- greet.sh prints helo, not hello');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'review_rejected', exit_code: 6, review: { rejected_in_a_row: 1 } });
    expect(readJson(join(dir, 'report.json'))).toMatchObject({ exit_reason: 'review_rejected', exit_code: 6, review: { last_verdict: 'CHANGES_REQUESTED' } });
  });
});
