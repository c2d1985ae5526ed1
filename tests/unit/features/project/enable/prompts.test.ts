import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPrompter, WizardCancelledError, type Prompter } from '../../../../../src/features/project/enable/prompts.js';
import { scriptedPrompter } from './scripted-prompter.js';

describe('createPrompter', () => {
  it('ask: returns the answer, or the default on empty input', async () => {
    const { prompter, output } = scriptedPrompter(['  typed  ', '']);
    expect(await prompter.ask('Name', 'dflt')).toBe('typed');
    expect(await prompter.ask('Name', 'dflt')).toBe('dflt');
    expect(output()).toBe('Name [dflt]: Name [dflt]: ');
    prompter.close();
  });

  it('confirm: y/yes/n/no in any case, default on empty, asks again on anything else', async () => {
    const { prompter, output } = scriptedPrompter(['YES', 'n', '', 'maybe', 'y']);
    expect(await prompter.confirm('Go?', false)).toBe(true);
    expect(await prompter.confirm('Go?', true)).toBe(false);
    expect(await prompter.confirm('Go?', true)).toBe(true);
    expect(await prompter.confirm('Go?', false)).toBe(true);
    expect(output()).toContain('Go? [y/N]: Go? [Y/n]: Go? [Y/n]: Go? [y/N]: Please answer y or n.\nGo? [y/N]: ');
  });

  it('askInteger: re-prompts on invalid numbers and out-of-range values', async () => {
    const { prompter, output } = scriptedPrompter(['abc', '0', '501', '12.5', '250', '']);
    expect(await prompter.askInteger('Calls', { defaultValue: 100, min: 1, max: 500 })).toBe(250);
    expect(await prompter.askInteger('Calls', { defaultValue: 100, min: 1, max: 500 })).toBe(100);
    expect(output().match(/Please enter a whole number from 1 to 500\./g)).toHaveLength(4);
  });

  it('select: numbered choices, default on empty, retry on invalid', async () => {
    const { prompter, output } = scriptedPrompter(['9', 'x', '2', '']);
    expect(await prompter.select('Pick:', ['a', 'b', 'c'], 0)).toBe(1);
    expect(await prompter.select('Pick:', ['a', 'b', 'c'], 2)).toBe(2);
    expect(output()).toContain('Pick:\n  1) a\n  2) b\n  3) c\nChoose 1-3 [1]: Please enter a number from 1 to 3.\n');
  });

  it.each([
    ['ask', (p: Prompter) => p.ask('Name', 'd')],
    ['confirm', (p: Prompter) => p.confirm('Go?', true)],
    ['askInteger', (p: Prompter) => p.askInteger('N', { defaultValue: 3, min: 1, max: 5 })],
    ['select', (p: Prompter) => p.select('S', ['a', 'b'], 1)],
  ])('%s: the end of input (Ctrl+D) cancels instead of taking the default, and never hangs', async (_name, question) => {
    const { prompter } = scriptedPrompter([], { endAfterAnswers: true });
    await expect(question(prompter)).rejects.toBeInstanceOf(WizardCancelledError);
    await expect(question(prompter)).rejects.toThrow(/Cancelled: the input ended \(Ctrl\+D\)/);
  });

  it('waits for an answer typed later', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const prompter = createPrompter({ input, output });
    const answer = prompter.ask('Later', 'd');
    input.write('now\n');
    expect(await answer).toBe('now');
    prompter.close();
  });

  it('writes no ANSI escapes', async () => {
    const { prompter, output } = scriptedPrompter(['1']);
    await prompter.select('S', ['a'], 0);
    prompter.say('info');
    expect(output()).not.toMatch(/\u001b\[/);
  });
});
