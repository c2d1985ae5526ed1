import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, redactArgs, type ClaudeArgsOptions } from '../../../../src/backends/claude/claude-args.js';
import type { ArgvCall, CliCallSettings } from '../../../../src/backends/cli-agent/argv.js';

/** The argv of a call: the agent's settings, the call and Claude's own options given as one set of overrides. */
function build(overrides: Partial<CliCallSettings & ArgvCall & ClaudeArgsOptions> = {}): { file: string; args: string[] } {
  const o = {
    command: ['claude'],
    model: '',
    effort: '',
    extraArgs: [],
    format: 'json' as const,
    allowedTools: ['Write', 'Bash(git *)'],
    prompt: 'Do the next task.',
    ...overrides,
  };
  return buildClaudeArgs(o, o, o);
}

describe('buildClaudeArgs (U§3.4 step 7)', () => {
  it('builds the minimal json invocation', () => {
    expect(build()).toEqual({ file: 'claude', args: ['--output-format', 'json', '--allowedTools', 'Write', 'Bash(git *)', '-p', 'Do the next task.'] });
  });

  it('puts every part in the original order with -p and the prompt last', () => {
    const inv = build({ model: 'opus', effort: 'high', resumeSessionId: 'sess-1', loopContext: 'Loop #3.' });
    expect(inv.args).toEqual([
      '--model',
      'opus',
      '--effort',
      'high',
      '--output-format',
      'json',
      '--allowedTools',
      'Write',
      'Bash(git *)',
      '--resume',
      'sess-1',
      '--append-system-prompt',
      'Loop #3.',
      '-p',
      'Do the next task.',
    ]);
  });

  it("puts the user's extra arguments before --allowedTools, which would take them as tools", () => {
    expect(build({ extraArgs: ['--max-turns', '40'] }).args).toEqual([
      '--output-format',
      'json',
      '--max-turns',
      '40',
      '--allowedTools',
      'Write',
      'Bash(git *)',
      '-p',
      'Do the next task.',
    ]);
  });

  it.each([
    ['model', { model: '' }, '--model'],
    ['effort', { effort: '' }, '--effort'],
    ['resume id', { resumeSessionId: '' }, '--resume'],
    ['loop context', { loopContext: '' }, '--append-system-prompt'],
  ])('omits the flag when the %s is empty', (_name, overrides, flag) => {
    expect(build(overrides).args).not.toContain(flag);
  });

  it('omits model, effort and resume when they are not given at all', () => {
    const { args } = build();
    for (const flag of ['--model', '--effort', '--resume', '--append-system-prompt', '--verbose']) expect(args).not.toContain(flag);
  });

  it('text format passes no format flag at all', () => {
    const { args } = build({ format: 'text' });
    expect(args).not.toContain('--output-format');
    expect(args).toEqual(['--allowedTools', 'Write', 'Bash(git *)', '-p', 'Do the next task.']);
  });

  it('stream-json adds --verbose and --include-partial-messages', () => {
    const { args } = build({ format: 'stream-json' });
    expect(args.slice(0, 4)).toEqual(['--output-format', 'stream-json', '--verbose', '--include-partial-messages']);
  });

  it('passes each tool as its own argument, spaces and parentheses intact', () => {
    const tools = ['Write', 'Bash(git commit *)', 'mcp__github__create_issue', 'WebFetch(domain:example.com)', 'Bash(npm run test -- --watch=false)'];
    const { args } = build({ allowedTools: tools });
    const at = args.indexOf('--allowedTools');
    expect(args.slice(at + 1, at + 1 + tools.length)).toEqual(tools);
  });

  it('omits --allowedTools when no tools are given', () => {
    expect(build({ allowedTools: [] }).args).not.toContain('--allowedTools');
  });

  it('passes a multi-line prompt with shell metacharacters verbatim as the last argument', () => {
    const prompt = '# Task\n\nRun `npm test` && echo "$HOME" | tee out.txt; rm -rf $(pwd) > /dev/null\n* [x] done\n\'quoted\' \\ backslash\n';
    const { args } = build({ prompt, loopContext: 'ctx "quoted" $VAR' });
    expect(args[args.length - 1]).toBe(prompt);
    expect(args[args.length - 2]).toBe('-p');
    expect(args[args.indexOf('--append-system-prompt') + 1]).toBe('ctx "quoted" $VAR');
  });

  it.each(['---\ntitle: front matter\n---\nDo it', '-p', '--help', '- [ ] first task'])('a prompt starting with "-" (%j) is not read as a flag', (prompt) => {
    const { args } = build({ prompt });
    const last = args[args.length - 1] as string;
    expect(args[args.length - 2]).toBe('-p');
    expect(last.startsWith('-')).toBe(false);
    expect(last.trimStart()).toBe(prompt);
  });

  it('supports a command with a prefix such as npx @anthropic-ai/claude-code', () => {
    const inv = build({ command: ['npx', '@anthropic-ai/claude-code'] });
    expect(inv.file).toBe('npx');
    expect(inv.args[0]).toBe('@anthropic-ai/claude-code');
    expect(inv.args[1]).toBe('--output-format');
  });

  it('keeps a command path with spaces as one file name', () => {
    expect(build({ command: ['/opt/my tools/claude'] }).file).toBe('/opt/my tools/claude');
  });

  it('refuses an empty command', () => {
    expect(() => build({ command: [] })).toThrow('empty Claude command');
  });
});

describe('redactArgs', () => {
  it('replaces the prompt and the loop context by their sizes', () => {
    const prompt = 'SECRET PROMPT TEXT\nline two';
    const inv = build({ prompt, loopContext: 'Loop #2. Previous: private summary', resumeSessionId: 'abc' });
    const line = redactArgs(inv);
    expect(line).not.toContain('SECRET');
    expect(line).not.toContain('private summary');
    expect(line).toContain(`-p <prompt:${prompt.length} chars>`);
    expect(line).toContain('--append-system-prompt <context:34 chars>');
    expect(line).toContain('--resume abc');
  });

  it('quotes arguments a reader would otherwise misread', () => {
    const line = redactArgs(build());
    expect(line).toBe('claude --output-format json --allowedTools Write "Bash(git *)" -p <prompt:17 chars>');
  });

  it('shows the command prefix', () => {
    expect(redactArgs(build({ command: ['npx', '@anthropic-ai/claude-code'] })).startsWith('npx @anthropic-ai/claude-code --output-format json')).toBe(true);
  });

  it('leaves a trailing -p without a value alone', () => {
    expect(redactArgs({ file: 'claude', args: ['--version', '-p'] })).toBe('claude --version -p');
  });
});
