import { describe, expect, it } from 'vitest';
import { detectProject } from '../../../../../src/features/project/enable/detect-project.js';
import { runEnableWizard, type WizardContext } from '../../../../../src/features/project/enable/enable-wizard.js';
import { scriptedPrompter } from './scripted-prompter.js';

const node = detectProject(new Map([['package.json', JSON.stringify({ name: 'web', scripts: { test: 'vitest' } })]]), 'folder');
const unknown = detectProject(new Map(), 'folder');

function context(overrides: Partial<WizardContext> = {}): WizardContext {
  return { detected: node, prdCandidates: [], currentMaxCalls: 100, currentBackend: 'claude', ...overrides };
}

describe('runEnableWizard', () => {
  it('takes every default on empty answers, accepting the proposed verify command', async () => {
    const { prompter, output } = scriptedPrompter(['', '', '']);
    expect(await runEnableWizard(prompter, context())).toEqual({ projectName: 'web', maxCallsPerHour: 100, verifyCommand: 'npm test', backend: 'claude' });
    expect(output()).toContain('Detected: javascript, name "web", npm');
    expect(output()).toContain('Use "npm test" as the verify command? [Y/n]: ');
  });

  it('uses typed answers, re-asking an invalid number, and a custom verify command', async () => {
    const { prompter } = scriptedPrompter(['shop', 'lots', '250', 'n', 'npm run check']);
    expect(await runEnableWizard(prompter, context())).toEqual({
      projectName: 'shop',
      maxCallsPerHour: 250,
      verifyCommand: 'npm run check',
      backend: 'claude',
    });
  });

  it('allows no verify command at all', async () => {
    const { prompter } = scriptedPrompter(['', '', 'n', '']);
    expect((await runEnableWizard(prompter, context())).verifyCommand).toBe('');
  });

  it('asks for a verify command when nothing was detected', async () => {
    const { prompter, output } = scriptedPrompter(['', '', 'make check']);
    const answers = await runEnableWizard(prompter, context({ detected: unknown }));
    expect(answers.verifyCommand).toBe('make check');
    expect(output()).not.toContain('[Y/n]');
  });

  it('offers the PRD files found and the default task list', async () => {
    const { prompter, output } = scriptedPrompter(['', '', '2', '']);
    const answers = await runEnableWizard(prompter, context({ prdCandidates: ['docs/prd.md', 'specs/api-spec.md'] }));
    expect(answers.prdPath).toBe('specs/api-spec.md');
    expect(output()).toContain('  1) Import tasks from docs/prd.md\n  2) Import tasks from specs/api-spec.md\n  3) Start with the default task list\n');

    const skip = scriptedPrompter(['', '', '', '']);
    expect((await runEnableWizard(skip.prompter, context({ prdCandidates: ['docs/prd.md'] }))).prdPath).toBeUndefined();
  });

  it('does not ask what the flags already answered', async () => {
    const { prompter, output } = scriptedPrompter(['7']);
    const answers = await runEnableWizard(
      prompter,
      context({ projectName: 'flagged', prdPath: 'x.md', verifyCommand: 'pytest', prdCandidates: ['docs/prd.md'], backend: 'gemini' }),
    );
    expect(answers).toEqual({ projectName: 'flagged', maxCallsPerHour: 7, prdPath: 'x.md', verifyCommand: 'pytest', backend: 'gemini' });
    expect(output()).not.toMatch(/Project name|verify command\?|Tasks for|Agent the loop runs/);
  });

  it("offers the existing .ralphrc's calls per hour as the default", async () => {
    const { prompter, output } = scriptedPrompter(['', '', '']);
    expect((await runEnableWizard(prompter, context({ currentMaxCalls: 40 }))).maxCallsPerHour).toBe(40);
    expect(output()).toContain('(1-100000) [40]: ');
  });

  it('asks last which agent runs the loop, naming the file each one reads', async () => {
    const { prompter, output } = scriptedPrompter(['', '', '', '2']);
    expect((await runEnableWizard(prompter, context())).backend).toBe('codex');
    expect(output()).toContain(
      'Agent the loop runs:\n  1) claude: Claude Code (reads CLAUDE.md)\n  2) codex: Codex CLI (reads AGENTS.md)\n  3) gemini: Gemini CLI (reads GEMINI.md)\n',
    );
    expect(output()).toContain('Choose 1-5 [1]: ');
  });

  it("offers the existing .ralphrc's agent as the default, re-asking a number out of range", async () => {
    const { prompter, output } = scriptedPrompter(['', '', '', '9', '']);
    expect((await runEnableWizard(prompter, context({ currentBackend: 'opencode' }))).backend).toBe('opencode');
    expect(output()).toContain('Choose 1-5 [4]: ');
    expect(output()).toContain('Please enter a number from 1 to 5.');
  });
});
