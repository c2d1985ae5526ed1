import { describe, expect, it } from 'vitest';
import type { ArgvCall, CliCallSettings } from '../../../../src/backends/cli-agent/argv.js';
import { buildCodexArgs, redactCodexArgs, runsInCodexSandbox, tomlString } from '../../../../src/backends/codex/codex-args.js';

/** The argv of a call: the agent's settings, the call and the hidden variables given as one set of overrides. */
function build(overrides: Partial<CliCallSettings & ArgvCall & { hiddenEnv: readonly string[] }> = {}): ReturnType<typeof buildCodexArgs> {
  const o = { command: ['codex'], model: '', effort: '', extraArgs: [], prompt: 'Do the next task.', ...overrides };
  return buildCodexArgs(o, o, o.hiddenEnv);
}

const BASE = ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];

describe('buildCodexArgs', () => {
  it('runs exec headless with approvals off and the prompt on stdin', () => {
    expect(build()).toEqual({ file: 'codex', args: [...BASE, '-'], input: 'Do the next task.' });
  });

  it('passes model, reasoning effort and the loop context as developer instructions, then the extra arguments', () => {
    const inv = build({
      command: ['npx', '@openai/codex'],
      model: 'gpt-5.1-codex',
      effort: 'high',
      loopContext: 'Loop #2.\nSay "done".',
      extraArgs: ['--enable', 'x'],
    });
    expect(inv.file).toBe('npx');
    expect(inv.args).toEqual([
      '@openai/codex',
      ...BASE,
      '-m',
      'gpt-5.1-codex',
      '-c',
      'model_reasoning_effort="high"',
      '-c',
      'developer_instructions="Loop #2.\\nSay \\"done\\"."',
      '--enable',
      'x',
      '-',
    ]);
    expect(inv.input).toBe('Do the next task.');
  });

  it('keeps the names Codex needs for itself out of the commands it runs', () => {
    expect(build({ hiddenEnv: ['CODEX_API_KEY', 'OPENAI_API_KEY'] }).args).toEqual([
      ...BASE,
      '-c',
      'shell_environment_policy.exclude=["CODEX_API_KEY", "OPENAI_API_KEY"]',
      '-',
    ]);
  });

  it('resumes a thread by id, the loop context at the head of the prompt (a thread keeps its first developer instructions)', () => {
    const inv = build({ resumeSessionId: '01a2-thread', loopContext: 'Loop #3.' });
    expect(inv.args).toEqual(['exec', 'resume', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '01a2-thread', '-']);
    expect(inv.input).toBe('Loop #3.\n\nDo the next task.');
  });

  it.each([
    ['--sandbox', 'workspace-write'],
    ['-s', 'read-only'],
    ['-c', 'sandbox_mode="workspace-write"'],
    ['--full-auto'],
    ['-c', 'approval_policy="on-request"'],
  ])('leaves the bypass out when the extra arguments choose Codex’s own mode: %s', (...extra) => {
    const inv = build({ extraArgs: extra });
    expect(inv.args).not.toContain('--dangerously-bypass-approvals-and-sandbox');
    expect(inv.args.slice(-1 - extra.length, -1)).toEqual(extra);
  });

  it('puts a context too long for one argument on stdin ahead of the prompt', () => {
    const long = 'verify output line\n'.repeat(4000);
    const inv = build({ loopContext: long });
    expect(inv.args.some((a) => a.startsWith('developer_instructions='))).toBe(false);
    expect(inv.input).toBe(`${long}\n\nDo the next task.`);
  });

  it('passes a sandbox chosen by flag as a setting on resume, which takes no --sandbox', () => {
    const inv = build({
      resumeSessionId: 't-1',
      extraArgs: ['--sandbox', 'workspace-write', '--enable', 'x', '-s', 'read-only', '--sandbox=danger-full-access'],
    });
    expect(inv.args).toEqual([
      'exec',
      'resume',
      '--json',
      '--skip-git-repo-check',
      '-c',
      'sandbox_mode="workspace-write"',
      '--enable',
      'x',
      '-c',
      'sandbox_mode="read-only"',
      '-c',
      'sandbox_mode="danger-full-access"',
      't-1',
      '-',
    ]);
  });

  it('never puts the prompt in argv, even one that looks like a flag', () => {
    const inv = build({ prompt: '--- front matter' });
    expect(inv.args).not.toContain('--- front matter');
    expect(inv.input).toBe('--- front matter');
  });

  it('rejects an empty command', () => {
    expect(() => build({ command: [] })).toThrow(/empty Codex command/);
  });
});

describe('tomlString', () => {
  it('quotes text TOML would otherwise read as another type', () => {
    expect(tomlString('true')).toBe('"true"');
    expect(tomlString('42')).toBe('"42"');
  });

  it('escapes quotes, backslashes and control characters', () => {
    expect(tomlString('a"b\\c\td\r\u0001\u007f')).toBe('"a\\"b\\\\c\\td\\r\\u0001\\u007f"');
  });

  it('keeps non-ASCII text and replaces a lone surrogate TOML cannot hold', () => {
    expect(tomlString('Grüße ✓')).toBe('"Grüße ✓"');
    expect(tomlString('x\ud800y')).toBe('"x\ufffdy"');
  });
});

describe('redactCodexArgs', () => {
  it('shows the size of the context and the prompt, not their text', () => {
    const line = redactCodexArgs(build({ loopContext: 'secret plan', prompt: 'twelve chars' }));
    expect(line).toContain('developer_instructions=<context:13 chars>');
    expect(line).toContain('<prompt on stdin:12 chars>');
    expect(line).not.toContain('secret plan');
    expect(line).not.toContain('twelve chars');
  });
});

describe('runsInCodexSandbox', () => {
  it.each([
    [[], false],
    [['--sandbox', 'read-only'], true],
    [['-s', 'workspace-write'], true],
    [['--sandbox=read-only'], true],
    [['-c', 'sandbox_mode="workspace-write"'], true],
    [['--full-auto'], true],
    [['--sandbox', 'danger-full-access'], false],
    [['-c', 'sandbox_mode="danger-full-access"'], false],
    [['-m', 'gpt-5.5'], false],
  ])('%j → %s', (args, sandboxed) => {
    expect(runsInCodexSandbox(args)).toBe(sandboxed);
  });
});
