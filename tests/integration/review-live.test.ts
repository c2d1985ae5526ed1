// `ralph --review --live` through the built CLI: the reviewer's output streams on stderr after
// its 🔎 line and lands in live.log, like the worker's; without --live none of it is shown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../helpers/run-cli.js';

const done = `Wrote it.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
const REVIEWER_TEXT = 'Reviewer notes: the diff adds a.txt as asked.';
const approved = `${REVIEWER_TEXT}\n---RALPH_REVIEW---\nVERDICT: APPROVED\nFINDINGS:\n---END_RALPH_REVIEW---`;

function project(): string {
  const dir = ralphProject();
  writeMockScript(dir, [
    { output: done, files: { 'a.txt': '1\n' } },
    { hat: 'reviewer', output: approved },
  ]);
  return dir;
}

describe('ralph --review --live', () => {
  it("streams the reviewer's output after its review line, and into live.log", async () => {
    const dir = project();
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--review', '--verify', 'test -f a.txt', '--live'], dir, cleanEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    const reviewLine = r.stderr.indexOf('🔎 Review 1');
    expect(reviewLine).toBeGreaterThan(-1);
    expect(r.stderr.indexOf(REVIEWER_TEXT, reviewLine)).toBeGreaterThan(reviewLine);
    expect(r.stderr.indexOf('✅ Review 1: APPROVED')).toBeGreaterThan(r.stderr.indexOf(REVIEWER_TEXT, reviewLine));
    expect(readFileSync(join(dir, '.ralph', 'live.log'), 'utf8')).toContain(REVIEWER_TEXT);
  });

  it("without --live the reviewer's output is not shown", async () => {
    const dir = project();
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--review', '--verify', 'test -f a.txt'], dir, cleanEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('✅ Review 1: APPROVED');
    expect(r.stderr).not.toContain(REVIEWER_TEXT);
  });
});
