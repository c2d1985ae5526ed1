import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, defaultConfig, type ConfigField } from '../../../src/config/keys.js';
import { RC, load } from '../support/config.js';

describe('loadConfig: defaults', () => {
  it('uses the built-in defaults when nothing is set', () => {
    const loaded = load({});
    expect(loaded.config).toEqual(defaultConfig());
    expect(loaded.warnings).toEqual([]);
    expect(loaded.errors).toEqual([]);
    for (const field of CONFIG_FIELDS) expect(loaded.origins[field]).toEqual({ source: 'default' });
  });

  it('keeps the defaults of the keys a minimal .ralphrc does not set', () => {
    const loaded = load({ rc: 'MAX_CALLS_PER_HOUR=50\n' });
    expect(loaded.config.maxCallsPerHour).toBe(50);
    expect(loaded.config.outputFormat).toBe('json');
    expect(loaded.config.sessionContinuity).toBe(true);
    expect(loaded.config.timeoutMinutes).toBe(15);
    expect(loaded.config.allowedTools).toContain('Bash(git commit *)');
  });
});

/**
 * Layering, uniformly for every key: flag > environment > .ralphrc > default
 * (spec §2; the original lets .ralphrc beat flags, U§15.1).
 */
interface LayerCase {
  field: ConfigField;
  rc: string;
  rcValue: unknown;
  envName: string;
  env: string;
  envValue: unknown;
  flag: string | boolean;
  flagValue: unknown;
  flagName: string;
}

const LAYER_CASES: LayerCase[] = [
  {
    field: 'maxCallsPerHour',
    rc: 'MAX_CALLS_PER_HOUR=50',
    rcValue: 50,
    envName: 'MAX_CALLS_PER_HOUR',
    env: '60',
    envValue: 60,
    flag: '7',
    flagValue: 7,
    flagName: '--calls',
  },
  {
    field: 'timeoutMinutes',
    rc: 'CLAUDE_TIMEOUT_MINUTES=30',
    rcValue: 30,
    envName: 'CLAUDE_TIMEOUT_MINUTES',
    env: '45',
    envValue: 45,
    flag: '5',
    flagValue: 5,
    flagName: '--timeout',
  },
  {
    field: 'outputFormat',
    rc: 'CLAUDE_OUTPUT_FORMAT="text"',
    rcValue: 'text',
    envName: 'CLAUDE_OUTPUT_FORMAT',
    env: 'json',
    envValue: 'json',
    flag: 'text',
    flagValue: 'text',
    flagName: '--output-format',
  },
  {
    field: 'allowedTools',
    rc: 'ALLOWED_TOOLS="Write,Read"',
    rcValue: ['Write', 'Read'],
    envName: 'CLAUDE_ALLOWED_TOOLS',
    env: 'Edit,Bash(npm *)',
    envValue: ['Edit', 'Bash(npm *)'],
    flag: 'mcp__server__tool,Agent',
    flagValue: ['mcp__server__tool', 'Agent'],
    flagName: '--allowed-tools',
  },
  {
    field: 'sessionContinuity',
    rc: 'SESSION_CONTINUITY=false',
    rcValue: false,
    envName: 'CLAUDE_USE_CONTINUE',
    env: 'true',
    envValue: true,
    flag: false,
    flagValue: false,
    flagName: '--no-continue',
  },
  {
    field: 'verbose',
    rc: 'RALPH_VERBOSE=true',
    rcValue: true,
    envName: 'VERBOSE_PROGRESS',
    env: 'false',
    envValue: false,
    flag: true,
    flagValue: true,
    flagName: '--verbose',
  },
  {
    field: 'sessionExpiryHours',
    rc: 'SESSION_EXPIRY_HOURS=12',
    rcValue: 12,
    envName: 'CLAUDE_SESSION_EXPIRY_HOURS',
    env: '6',
    envValue: 6,
    flag: '2',
    flagValue: 2,
    flagName: '--session-expiry',
  },
  {
    field: 'model',
    rc: 'CLAUDE_MODEL=sonnet',
    rcValue: 'sonnet',
    envName: 'CLAUDE_MODEL',
    env: 'opus',
    envValue: 'opus',
    flag: 'haiku',
    flagValue: 'haiku',
    flagName: '--model',
  },
  {
    field: 'cbAutoReset',
    rc: 'CB_AUTO_RESET=false',
    rcValue: false,
    envName: 'CB_AUTO_RESET',
    env: 'false',
    envValue: false,
    flag: true,
    flagValue: true,
    flagName: '--auto-reset-circuit',
  },
];

describe('loadConfig: layering flag > env > .ralphrc > default', () => {
  describe.each(LAYER_CASES)('$field', (c) => {
    it('.ralphrc beats the default and records file:line', () => {
      const loaded = load({ rc: `# header\n${c.rc}\n` });
      expect(loaded.errors).toEqual([]);
      expect(loaded.config[c.field]).toEqual(c.rcValue);
      expect(loaded.origins[c.field]).toEqual({ source: 'ralphrc', where: `${RC}:2` });
    });

    it('the environment beats .ralphrc', () => {
      const loaded = load({ rc: c.rc, env: { [c.envName]: c.env } });
      expect(loaded.errors).toEqual([]);
      expect(loaded.config[c.field]).toEqual(c.envValue);
      expect(loaded.origins[c.field]).toEqual({ source: 'env', where: c.envName });
    });

    it('a flag beats the environment and .ralphrc', () => {
      const loaded = load({ rc: c.rc, env: { [c.envName]: c.env }, flags: { [c.field]: c.flag } });
      expect(loaded.errors).toEqual([]);
      expect(loaded.config[c.field]).toEqual(c.flagValue);
      expect(loaded.origins[c.field]).toEqual({ source: 'flag', where: c.flagName });
    });

    it('an empty environment variable counts as unset', () => {
      const loaded = load({ rc: c.rc, env: { [c.envName]: '' } });
      expect(loaded.config[c.field]).toEqual(c.rcValue);
      expect(loaded.origins[c.field]?.source).toBe('ralphrc');
    });
  });
});

describe('loadConfig: aliases of the original', () => {
  it.each([
    ['CLAUDE_ALLOWED_TOOLS="Write,Bash(git *)"', 'allowedTools', ['Write', 'Bash(git *)']],
    ['CLAUDE_USE_CONTINUE=false', 'sessionContinuity', false],
    ['VERBOSE_PROGRESS=true', 'verbose', true],
    ['CLAUDE_SESSION_EXPIRY_HOURS=3', 'sessionExpiryHours', 3],
    ['RESET_WAIT_MINUTES=15', 'usageLimitWaitMinutes', 15],
  ] as const)('.ralphrc %s sets %s', (line, field, value) => {
    const loaded = load({ rc: line });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.config[field]).toEqual(value);
  });

  it('a v0.9-style .ralphrc (ALLOWED_TOOLS, RALPH_VERBOSE) maps to the same settings', () => {
    const loaded = load({ rc: 'ALLOWED_TOOLS="Write,Read"\nRALPH_VERBOSE=true' });
    expect(loaded.config.allowedTools).toEqual(['Write', 'Read']);
    expect(loaded.config.verbose).toBe(true);
  });

  it('the main name wins when both it and an alias are in the environment', () => {
    const loaded = load({ env: { ALLOWED_TOOLS: 'Write', CLAUDE_ALLOWED_TOOLS: 'Read' } });
    expect(loaded.config.allowedTools).toEqual(['Write']);
    expect(loaded.origins.allowedTools).toEqual({ source: 'env', where: 'ALLOWED_TOOLS' });
  });

  it('an empty main name in the environment falls through to the alias', () => {
    const loaded = load({ env: { ALLOWED_TOOLS: '', CLAUDE_ALLOWED_TOOLS: 'Read' } });
    expect(loaded.config.allowedTools).toEqual(['Read']);
  });

  it('the last assignment in .ralphrc wins', () => {
    const loaded = load({ rc: 'MAX_CALLS_PER_HOUR=10\nMAX_CALLS_PER_HOUR=20' });
    expect(loaded.config.maxCallsPerHour).toBe(20);
    expect(loaded.origins.maxCallsPerHour).toEqual({ source: 'ralphrc', where: `${RC}:2` });
  });
});

describe('loadConfig: .ralphrc details', () => {
  it('an empty value in .ralphrc leaves the default in place', () => {
    const loaded = load({ rc: 'CLAUDE_MODEL=\nMAX_CALLS_PER_HOUR=""' });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.model).toBe('');
    expect(loaded.config.maxCallsPerHour).toBe(100);
    expect(loaded.origins.maxCallsPerHour).toEqual({ source: 'default' });
  });

  it('expands $VAR in .ralphrc from the environment it is given', () => {
    const loaded = load({ rc: 'CLAUDE_CODE_CMD="$HOME/bin/claude --debug"', env: { HOME: '/home/ada' } });
    expect(loaded.config.claudeCommand).toEqual(['/home/ada/bin/claude', '--debug']);
  });

  it('splits CLAUDE_CODE_CMD into words', () => {
    const loaded = load({ rc: 'CLAUDE_CODE_CMD="npx @anthropic-ai/claude-code"' });
    expect(loaded.config.claudeCommand).toEqual(['npx', '@anthropic-ai/claude-code']);
  });

  it('OPTIONAL_SECTIONS replaces the default list', () => {
    const loaded = load({ rc: 'OPTIONAL_SECTIONS="Backlog, Someday"' });
    expect(loaded.config.optionalSections).toEqual(['Backlog', 'Someday']);
  });

  it('reports parse errors as file:line: message', () => {
    const loaded = load({ rc: 'A=1\nMAX_CALLS_PER_HOUR=$(nproc)\n' });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]?.startsWith(`${RC}:2: MAX_CALLS_PER_HOUR: command substitution`)).toBe(true);
  });

  // Regression: earlier, an unquoted `$(echo 5)` is reported as "unquoted value contains spaces; put the value in
  // quotes", which sends the user to a second error; spec §2 / the brief want command substitution
  // named as the reason (the file is parsed, never executed).
  it('names command substitution as the problem even when the unquoted $(...) contains spaces', () => {
    const loaded = load({ rc: 'MAX_CALLS_PER_HOUR=$(echo 5)' });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('command substitution');
  });

  it('warns about unknown keys with file and line, and ignores them', () => {
    const loaded = load({ rc: 'MAX_CALLS_PER_HOUR=5\n\nMAX_CALS_PER_HOUR=7\n' });
    expect(loaded.warnings).toEqual([`${RC}:3: unknown key MAX_CALS_PER_HOUR (ignored); did you mean MAX_CALLS_PER_HOUR?`]);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.maxCallsPerHour).toBe(5);
  });

  it.each([
    'SANDBOX_PROVIDER=docker',
    'SANDBOX_DOCKER_IMAGE=ralph-sandbox:latest',
    'SANDBOX_E2B_TEMPLATE=base',
    'SYNC_INCLUDE="src/**"',
    'GITHUB_ISSUE=42',
    'COMMENT_PROGRESS=true',
    'COMMENT_INTERVAL=5',
    'AUTO_CLOSE=true',
    'CREATE_PR=true',
    'DRAFT_PR=false',
    'FOLLOWUP_LABEL=tech-debt',
    'ADD_COMPLETION_LABELS=done',
    'QUEUE_FILE=queue.json',
  ])('warns that %s belongs to a family this version does not support', (line) => {
    const loaded = load({ rc: `\n${line}` });
    const key = line.split('=')[0] as string;
    expect(loaded.warnings).toEqual([`${RC}:2: ${key} is not supported by this version of Ralph (ignored)`]);
    expect(loaded.errors).toEqual([]);
  });

  it('accepts the informational keys the original writes without a word', () => {
    const rc = [
      'PROJECT_NAME="my-app"',
      'PROJECT_TYPE=typescript',
      'TASK_SOURCES="local"',
      'GITHUB_TASK_LABEL="ralph-task"',
      'BEADS_FILTER="status:open"',
      'CLAUDE_AUTO_UPDATE=true',
      'CB_OUTPUT_DECLINE_THRESHOLD=70',
      'PROMPT_FILE="PROMPT.md"',
      'FIX_PLAN_FILE="fix_plan.md"',
      'AGENT_FILE="AGENT.md"',
      'RALPH_SHELL_INIT_FILE="~/.zshrc"',
    ].join('\n');
    const loaded = load({ rc });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config).toEqual(defaultConfig());
  });

  it('reads a generated .ralphrc of the original without warnings', () => {
    const rc = [
      '# Ralph configuration',
      'PROJECT_NAME="demo"',
      'PROJECT_TYPE="typescript"',
      'CLAUDE_CODE_CMD="claude"',
      'MAX_CALLS_PER_HOUR=100',
      'CLAUDE_TIMEOUT_MINUTES=15',
      'CLAUDE_OUTPUT_FORMAT="json"',
      '#MAX_TOKENS_PER_HOUR=0',
      'ALLOWED_TOOLS="Write,Read,Edit,Bash(git add *),Bash(git commit *),Bash(npm *),Bash(pytest)"',
      'SESSION_CONTINUITY=true',
      'SESSION_EXPIRY_HOURS=24',
      'TASK_SOURCES="local"',
      'GITHUB_TASK_LABEL="ralph-task"',
      'BEADS_FILTER="status:open"',
      'CB_NO_PROGRESS_THRESHOLD=3',
      'CB_SAME_ERROR_THRESHOLD=5',
      'CB_OUTPUT_DECLINE_THRESHOLD=70',
      'CLAUDE_AUTO_UPDATE=true',
    ].join('\n');
    const loaded = load({ rc });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.allowedTools).toEqual(['Write', 'Read', 'Edit', 'Bash(git add *)', 'Bash(git commit *)', 'Bash(npm *)', 'Bash(pytest)']);
  });
});
