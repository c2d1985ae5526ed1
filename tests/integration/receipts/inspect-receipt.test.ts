// `ralph --inspect --receipt N|last` shows one iteration's receipt, readable or as JSON, and says
// clearly when there is none; a torn last line (a kill mid-write) is skipped with a warning.
import { appendFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../../helpers/run-cli.js';

const step = (n: number): Record<string, unknown> => ({
  output: `Step ${n}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
  files: { [`step-${n}.txt`]: String(n) },
  cost_usd: 0.5 * n,
  input_tokens: 1000 * n,
  output_tokens: 10 * n,
  session_id: 'mock-session-1',
});

describe('ralph --inspect --receipt', { timeout: 120_000 }, () => {
  it('shows a loop, the last one, and the JSON; skips a torn line; names what it holds when asked for another', async () => {
    const dir = ralphProject({ ralphrc: 'VERIFY_COMMAND="true"\n' });
    writeMockScript(dir, [step(1), step(2)]);
    const run = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '2'], dir, cleanEnv());
    expect(run.exitCode, run.stderr).toBe(7);

    const first = await ralph(['--inspect', '--receipt', '1'], dir, cleanEnv());
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Run +\S+, loop 1$/m);
    expect(first.stdout).toMatch(/^Tokens +1,000 in, 10 out, 0 cache read, 0 cache write$/m);
    expect(first.stdout).toMatch(/^Cost +\$0\.5000 \(reported\)$/m);
    expect(first.stdout).toMatch(/^Verify +true: passed in [\d.]+ s, attempt 1\/\d+ → passed$/m);
    expect(first.stdout).toMatch(/^Review +none$/m);
    expect(first.stdout).toMatch(/^Next +go on with the next loop$/m);

    appendFileSync(join(dir, '.ralph', 'logs', 'receipts.jsonl'), '{"version":1,"run_id":"torn');
    const last = await ralph(['--inspect', '--receipt', 'last', '--json'], dir, cleanEnv());
    expect(last.exitCode, last.stderr).toBe(0);
    expect(last.stderr).toContain('line 3: cut short (the loop was stopped while writing it); skipped');
    expect(JSON.parse(last.stdout)).toMatchObject({ loop: 2, cost: { usd: 1, source: 'reported' }, tokens: { input: 2000 } });

    const missing = await ralph(['--inspect', '--receipt', '9'], dir, cleanEnv());
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('No receipt for loop 9 in');
    expect(missing.stderr).toContain('it holds loops 1–2');

    const bad = await ralph(['--inspect', '--receipt', 'first'], dir, cleanEnv());
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('invalid value for --receipt: "first"; expected a loop number (1, 2, …) or last');
    const alone = await ralph(['--receipt', '1'], dir, cleanEnv());
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--receipt goes with --inspect');
    expect(readFileSync(join(dir, '.ralph', 'logs', 'receipts.jsonl'), 'utf8')).toContain('"run_id":"torn');
  });

  it('a receipts file that is a link is not written through; the run goes on and says so once', async () => {
    const dir = ralphProject({ ralphrc: 'VERIFY_COMMAND="true"\n' });
    writeMockScript(dir, [step(1), step(2)]);
    const elsewhere = join(dir, 'elsewhere.jsonl');
    mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
    symlinkSync(elsewhere, join(dir, '.ralph', 'logs', 'receipts.jsonl'));
    const run = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '2'], dir, cleanEnv());
    expect(run.exitCode, run.stderr).toBe(7);
    expect(run.stderr.split('The receipts cannot be written to').length - 1).toBe(1);
    expect(run.stderr).toContain('a resume after a crash would not count them');
    expect(() => readFileSync(elsewhere)).toThrow();
  });
});
