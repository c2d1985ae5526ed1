import { describe, expect, it } from 'vitest';
import type { PermissionDenial } from '../../../src/agent-result.js';
import {
  assessDenials,
  baseCommandAllowed,
  describeDenial,
  describeRefusedDespiteRule,
  extractBaseCommand,
  isCompoundCommand,
  suggestAllowedTools,
} from '../../../src/core/permission-denials.js';

describe('extractBaseCommand (U§13.5 _extract_base_command)', () => {
  it.each([
    ['mvn clean compile 2>&1 | tail -40', 'mvn'],
    ['   npm test', 'npm'],
    ['\t go test ./...', 'go'],
    ['cmd>file', 'cmd'],
    ['cmd<input', 'cmd'],
    ['git status;rm -rf /', 'git'],
    ['make&&make install', 'make'],
    ['ls|wc', 'ls'],
    ['npm', 'npm'],
    ['', ''],
    ['   ', ''],
    ['|', ''],
    ['| tail', ''],
    ['; ls', ''],
  ])('%j → %j', (command, base) => {
    expect(extractBaseCommand(command)).toBe(base);
  });
});

describe('baseCommandAllowed (U§13.5 _base_command_in_allowed_tools)', () => {
  it.each([
    ['mvn', ['Bash(mvn *)'], true],
    ['git', ['Bash(git *)'], true],
    ['anything', ['Bash(*)'], true],
    ['anything', ['*'], true],
    ['npm', ['Bash(npm*)'], true],
    ['npm', ['Bash(npm:*)'], true],
    ['git', ['Bash(git diff *)'], true],
    ['mvn', ['Write', 'Bash(git *)', 'Bash(mvn *)'], true],
    ['npm', ['  Bash(npm *)  '], true],
    ['npm', ['Bash( npm * )'], true],
    ['npm', ['Bash(npm install)'], false],
    ['git', ['Bash(git status)'], false],
    ['python', ['Bash(git *)', 'Bash(npm *)'], false],
    ['gitlab', ['Bash(git *)'], false],
    ['git', ['Bash(gitlab *)'], false],
    ['npm', ['Bash(npmx*)'], false],
    ['npm', ['Read', 'Write', 'Edit', 'WebFetch(domain:npmjs.com)'], false],
    ['npm', [], false],
    ['', ['Bash(*)'], false],
    ['', [], false],
  ] as const)('%j with %j → %s', (base, tools, allowed) => {
    expect(baseCommandAllowed(base, tools)).toBe(allowed);
  });

  it('a comma list parsed with whitespace around the commas works', () => {
    const tools = 'Write , Read ,  Bash(mvn *) '.split(',');
    expect(baseCommandAllowed('mvn', tools)).toBe(true);
  });
});

const bash = (command: string): PermissionDenial => ({ tool: 'Bash', detail: command });

describe('assessDenials: compound commands', () => {
  it('all Bash denials whose base command is allowed are a compound-command limitation', () => {
    const a = assessDenials([bash('mvn clean compile 2>&1 | tail -40'), bash('mvn test > out.txt')], ['Write', 'Bash(mvn *)']);
    expect(a.real).toEqual([]);
    expect(a.compound).toHaveLength(2);
    expect(a.deniedCommands).toEqual(['Bash(mvn clean compile 2>&1 | tail -40)', 'Bash(mvn test > out.txt)']);
  });

  it('a base command that is not allowed is a real denial', () => {
    const a = assessDenials([bash('npm test')], ['Write', 'Bash(git *)']);
    expect(a.real).toEqual([bash('npm test')]);
    expect(a.compound).toEqual([]);
    expect(a.deniedCommands).toEqual(['Bash(npm test)']);
  });

  it('a non-Bash denial is real', () => {
    const a = assessDenials([{ tool: 'AskUserQuestion' }], ['Bash(*)']);
    expect(a.real).toHaveLength(1);
    expect(a.deniedCommands).toEqual(['AskUserQuestion']);
  });

  it('a mix of covered Bash and anything else is all real', () => {
    const a = assessDenials([bash('mvn test | tail'), { tool: 'WebFetch' }], ['Bash(mvn *)']);
    expect(a.real).toHaveLength(2);
    expect(a.compound).toEqual([]);
  });

  it('a mix of covered and uncovered Bash is all real', () => {
    const a = assessDenials([bash('mvn test | tail'), bash('rm -rf build')], ['Bash(mvn *)']);
    expect(a.real).toHaveLength(2);
  });

  it('a Bash denial without a command is real', () => {
    expect(assessDenials([{ tool: 'Bash' }], ['Bash(*)']).real).toHaveLength(1);
  });

  it('no denials, nothing to report', () => {
    expect(assessDenials([], ['Write'])).toEqual({ real: [], compound: [], deniedCommands: [] });
  });

  it('an empty ALLOWED_TOOLS does not break anything', () => {
    expect(assessDenials([bash('npm test')], []).real).toHaveLength(1);
  });
});

describe('describeDenial', () => {
  it.each([
    [bash('git commit -m "x"'), 'Bash(git commit -m "x")'],
    [{ tool: 'Write' }, 'Write'],
    [{ tool: 'Bash' }, 'Bash'],
    [bash('x'.repeat(80)), `Bash(${'x'.repeat(60)}…)`],
  ])('%j → %j', (denial, text) => {
    expect(describeDenial(denial)).toBe(text);
  });
});

describe('suggestAllowedTools', () => {
  it('suggests Bash(<base> *) for a denied command', () => {
    expect(suggestAllowedTools([bash('npm test')], ['Bash(git *)'])).toEqual(['Bash(npm *)']);
  });

  it('suggests the tool name for other tools, once each', () => {
    expect(suggestAllowedTools([{ tool: 'WebFetch' }, { tool: 'WebFetch' }, bash('npm test'), bash('npm run lint')], [])).toEqual(['WebFetch', 'Bash(npm *)']);
  });

  it('suggests nothing for a command already covered (compound limitation) or a tool already listed', () => {
    expect(suggestAllowedTools([bash('mvn test | tail')], ['Bash(mvn *)'])).toEqual([]);
    expect(suggestAllowedTools([{ tool: 'Write' }], ['Write'])).toEqual([]);
  });

  it('skips a Bash denial with no usable base command', () => {
    expect(suggestAllowedTools([bash('| tail'), bash('  ')], [])).toEqual([]);
  });
});

describe('describeRefusedDespiteRule: each agent in its own words', () => {
  it('a plain command is not called compound, and the agent is named as the registry names it', () => {
    const line = describeRefusedDespiteRule('Gemini CLI', ['Bash(touch notes.txt)']);
    expect(line).toBe(
      'Gemini CLI refused 1 command whose base command is already in ALLOWED_TOOLS: Bash(touch notes.txt). The rule is there; its rule matching did not cover the whole command. The loop continues.',
    );
    expect(line).not.toMatch(/compound|Claude/);
  });

  it('a pipe or a redirect makes it compound', () => {
    expect(describeRefusedDespiteRule('OpenCode', ['Bash(npm test 2>&1 | tail)', 'Bash(npm run lint)'])).toBe(
      'OpenCode refused 2 compound commands whose base command is already in ALLOWED_TOOLS: Bash(npm test 2>&1 | tail), Bash(npm run lint). The rule is there; pipes, redirects and chained commands can fall outside a Bash(cmd *) rule. The loop continues.',
    );
  });

  it.each([
    ['touch a.txt', false],
    ['npm test | tail', true],
    ['echo x > x.txt', true],
    ['make && make install', true],
    ['echo $(date)', true],
  ])('isCompoundCommand(%j) → %s', (command, compound) => {
    expect(isCompoundCommand(command)).toBe(compound);
  });
});
