import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRalphrc } from '../../../../../src/config/ralphrc.js';
import { RalphError } from '../../../../../src/errors.js';
import { ALREADY_ENABLED_MESSAGE, formatEnableJson, formatEnableReport, runEnable } from '../../../../../src/features/project/enable/enable-command.js';
import { tempDir } from '../../../../helpers/temp-dir.js';
import { WizardCancelledError } from '../../../../../src/features/project/enable/prompts.js';
import { scriptedPrompter } from './scripted-prompter.js';

const rc = (dir: string, key: string): string | undefined =>
  parseRalphrc(readFileSync(join(dir, '.ralphrc'), 'utf8')).entries.find((e) => e.key === key)?.value;

describe('runEnable', () => {
  it('runs the wizard: PRD picked from the ones found, calls per hour and verify command written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'web', scripts: { test: 'jest' } }));
    writeFileSync(join(dir, 'product-requirements.md'), '- [ ] Sign up\n- [ ] Sign in\n');
    const { prompter } = scriptedPrompter(['', '60', '1', 'y']);
    const outcome = await runEnable({ cwd: dir, force: false, prompter });
    expect(outcome.result.tasksImported).toBe(2);
    expect(rc(dir, 'MAX_CALLS_PER_HOUR')).toBe('60');
    expect(rc(dir, 'VERIFY_COMMAND')).toBe('npm test');
    expect(formatEnableJson(outcome)).toMatchObject({ project_name: 'web', verify_command: 'npm test', tasks_imported: 2 });
    expect(formatEnableReport(outcome)).toContain('tasks imported from product-requirements.md: 2');
  });

  it('Ctrl+D in the middle of the wizard cancels it and writes nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'web', scripts: { test: 'jest' } }));
    const before = readdirSync(dir).sort();
    const { prompter } = scriptedPrompter(['web', '60'], { endAfterAnswers: true });
    await expect(runEnable({ cwd: dir, force: false, prompter })).rejects.toBeInstanceOf(WizardCancelledError);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('asks before replacing an enabled project: no → exit 2 and nothing changed, yes → replaced', async () => {
    const dir = tempDir();
    await runEnable({ cwd: dir, force: false });
    writeFileSync(join(dir, '.ralph/PROMPT.md'), 'mine');
    const no = scriptedPrompter(['n']);
    const refused = await runEnable({ cwd: dir, force: false, prompter: no.prompter }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RalphError);
    expect(refused).toMatchObject({ message: ALREADY_ENABLED_MESSAGE, exitCode: 2 });
    expect(readFileSync(join(dir, '.ralph/PROMPT.md'), 'utf8')).toBe('mine');

    const yes = scriptedPrompter(['y', '', '', '']);
    const outcome = await runEnable({ cwd: dir, force: false, prompter: yes.prompter });
    expect(outcome.result.layout.overwritten).toContain('.ralph/PROMPT.md');
  });

  it('keeps the calls-per-hour of an existing .ralphrc when the default answer is taken', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.ralphrc'), 'MAX_CALLS_PER_HOUR=30\n');
    const { prompter } = scriptedPrompter(['', '', '']);
    const outcome = await runEnable({ cwd: dir, force: false, prompter });
    expect(readFileSync(join(dir, '.ralphrc'), 'utf8')).toBe('MAX_CALLS_PER_HOUR=30\n');
    expect(outcome.result.layout.skipped).toContain('.ralphrc');
  });

  it('without a terminal proposes the detected verify command only as a comment', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "crab"\n');
    const outcome = await runEnable({ cwd: dir, force: false });
    expect(outcome.request.verify).toEqual({ command: 'cargo test', enabled: false });
    expect(rc(dir, 'VERIFY_COMMAND')).toBeUndefined();
    expect(formatEnableReport(outcome)).toContain('verify command proposed (commented out in .ralphrc): cargo test');
  });

  it('does not import into a fix_plan.md that exists, and says why', async () => {
    const dir = tempDir();
    await runEnable({ cwd: dir, force: false });
    writeFileSync(join(dir, 'prd.md'), '1. Something\n');
    writeFileSync(join(dir, '.ralph/fix_plan.md'), '- [ ] my own plan\n');
    // A partial setup (AGENT.md gone) is not "already enabled", so no --force is needed...
    rmSync(join(dir, '.ralph/AGENT.md'));
    const outcome = await runEnable({ cwd: dir, force: false, prdPath: 'prd.md' });
    // ...but the user's plan is kept and nothing is imported into it.
    expect(outcome.result.tasksImported).toBe(0);
    expect(outcome.result.warnings.join(' ')).toMatch(/fix_plan\.md already exists/);
    expect(readFileSync(join(dir, '.ralph/fix_plan.md'), 'utf8')).toBe('- [ ] my own plan\n');
    expect(outcome.result.layout.created).toContain('.ralph/AGENT.md');
  });
});
