import { describe, expect, it } from 'vitest';
import { buildGeminiArgs, composeGeminiPrompt, redactGeminiArgs } from '../../../../src/backends/gemini/gemini-args.js';

import type { ArgvCall, CliCallSettings } from '../../../../src/backends/cli-agent/argv.js';

const base = { command: ['gemini'], model: '', effort: '', extraArgs: [], prompt: 'Do the next task.' };

/** The argv of a call: the agent's settings, the call and the policy file given as one set of overrides. */
function build(o: CliCallSettings & ArgvCall & { policyPath?: string }): ReturnType<typeof buildGeminiArgs> {
  return buildGeminiArgs(o, o, o.policyPath);
}

describe('buildGeminiArgs', () => {
  it('asks for stream-json in a trusted folder, in the default approval mode with the policy file', () => {
    const { file, args } = build({ ...base, model: 'gemini-2.5-flash', policyPath: '/p/.ralph/logs/out.policy.toml', loopContext: 'Loop #2.' });
    expect(file).toBe('gemini');
    expect(args).toEqual([
      '--model',
      'gemini-2.5-flash',
      '--output-format',
      'stream-json',
      '--skip-trust',
      '--approval-mode',
      'default',
      '--policy',
      '/p/.ralph/logs/out.policy.toml',
      '-p',
      '<loop_context>\nLoop #2.\n</loop_context>\n\nDo the next task.',
    ]);
  });

  it('resumes a session, keeps the command prefix and puts extra arguments before the prompt', () => {
    const { file, args } = build({ ...base, command: ['npx', '@google/gemini-cli'], extraArgs: ['--sandbox'], resumeSessionId: 'abc-1' });
    expect(file).toBe('npx');
    expect(args.slice(0, 1)).toEqual(['@google/gemini-cli']);
    expect(args.slice(-5)).toEqual(['--sandbox', '--resume', 'abc-1', '-p', 'Do the next task.']);
    expect(args).not.toContain('--model');
    expect(args).not.toContain('--policy');
  });

  it.each([['--yolo'], ['-y'], ['--approval-mode=auto_edit'], ['--approval-mode']])('leaves the approval mode to %s in the extra arguments', (flag) => {
    const { args } = build({ ...base, extraArgs: [flag] });
    expect(args.filter((a) => a === 'default')).toEqual([]);
    expect(args).toContain(flag);
  });

  it('never lets a prompt that starts with a dash read as a flag', () => {
    const { args } = build({ ...base, prompt: '---\ntitle: x\n---' });
    expect(args.at(-1)).toBe('\n---\ntitle: x\n---');
  });

  it('shows the prompt as its size in logs', () => {
    const shown = redactGeminiArgs(build({ ...base, loopContext: 'secret plan' }));
    expect(shown).toMatch(/-p <prompt:\d+ chars>$/);
    expect(shown).not.toContain('secret plan');
  });

  it('sends the prompt alone when there is no loop context', () => {
    expect(composeGeminiPrompt('', 'P')).toBe('P');
  });

  it('refuses an empty command', () => {
    expect(() => build({ ...base, command: [] })).toThrow(/empty Gemini command/);
  });
});
