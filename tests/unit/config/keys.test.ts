import { describe, expect, it } from 'vitest';
import {
  CONFIG_FIELDS,
  CONFIG_KEYS,
  DEFAULT_ALLOWED_TOOLS,
  FIELD_BY_NAME,
  INFORMATIONAL_KEYS,
  UNSUPPORTED_KEY,
  defaultConfig,
} from '../../../src/config/keys.js';
import type { ValueType } from '../../../src/config/value-types.js';

describe('CONFIG_KEYS', () => {
  it('keeps the defaults of the original (U§1.4)', () => {
    const config = defaultConfig();
    expect(config).toMatchObject({
      claudeCommand: ['claude'],
      maxCallsPerHour: 100,
      maxTokensPerHour: 0,
      timeoutMinutes: 15,
      outputFormat: 'json',
      sessionContinuity: true,
      sessionExpiryHours: 24,
      model: '',
      effort: '',
      claudeMinVersion: '2.0.76',
      cbNoProgressThreshold: 3,
      cbSameErrorThreshold: 5,
      cbPermissionDenialThreshold: 2,
      cbCooldownMinutes: 30,
      cbAutoReset: false,
      optionalSections: ['Optional', 'Future', 'Future Enhancements', 'Nice to Have'],
      usageLimitWaitMinutes: 60,
      apiRetryMax: 3,
      apiRetryWaitSeconds: 300,
    });
  });

  it('has the new keys of the spec with their defaults', () => {
    expect(defaultConfig()).toMatchObject({
      pauseSeconds: 2,
      verifyCommand: '',
      verifyTimeoutSeconds: 300,
      verifyMaxAttempts: 5,
      checkpoint: 'auto',
      rollbackOnFail: false,
      maxLoops: 0,
      maxCostUsd: 0,
    });
    const names = CONFIG_FIELDS.map((f) => CONFIG_KEYS[f].key);
    for (const key of ['VERIFY_COMMAND', 'VERIFY_TIMEOUT', 'VERIFY_MAX_ATTEMPTS', 'CHECKPOINT', 'MAX_COST_USD', 'MAX_LOOPS']) expect(names).toContain(key);
  });

  it('the default allowlist is the original 19 entries: Edit and test runners, no broad git, no git clean/reset', () => {
    expect(DEFAULT_ALLOWED_TOOLS).toEqual(
      expect.arrayContaining([
        'Write',
        'Read',
        'Edit',
        'Bash(git status)',
        'Bash(git diff *)',
        'Bash(git commit *)',
        'Bash(npm test)',
        'Bash(npm run *)',
        'Bash(pytest)',
      ]),
    );
    // An unattended agent must not reach outside the machine or throw work away by default.
    const unsafe = /git (push|pull|fetch|checkout|switch|stash|merge|rebase|reset|clean|rm|tag|branch)|npm (publish|\*)|npm install \*/;
    expect(DEFAULT_ALLOWED_TOOLS.filter((t) => unsafe.test(t))).toEqual([]);
    expect(
      DEFAULT_ALLOWED_TOOLS.filter((t) => /\*\)$/.test(t) && !/^Bash\((git (status|diff|log|show|add|commit)|npm (test|run)|pytest) \*\)$/.test(t)),
    ).toEqual([]);
    expect(DEFAULT_ALLOWED_TOOLS).not.toContain('Bash(git *)');
    expect(DEFAULT_ALLOWED_TOOLS.filter((t) => /git (clean|rm|reset)/.test(t))).toEqual([]);
    expect(defaultConfig().allowedTools).toEqual(DEFAULT_ALLOWED_TOOLS);
  });

  it.each(CONFIG_FIELDS)('the default of %s survives format → parse unchanged', (field) => {
    const spec = CONFIG_KEYS[field] as { type: ValueType<unknown>; default: unknown };
    const parsed = spec.type.parse(spec.type.format(spec.default));
    expect(parsed).toEqual({ ok: true, value: spec.default });
  });

  it('every .ralphrc name and alias belongs to exactly one field', () => {
    const names = CONFIG_FIELDS.flatMap((f) => [CONFIG_KEYS[f].key, ...(CONFIG_KEYS[f].aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(FIELD_BY_NAME.has(name)).toBe(true);
  });

  it('every command-line flag belongs to exactly one field', () => {
    const flags = CONFIG_FIELDS.flatMap((f) => {
      const flag = CONFIG_KEYS[f].flag;
      return flag ? [flag.name, ...(flag.short ? [flag.short] : []), ...(flag.off ? [flag.off.name] : [])] : [];
    });
    expect(new Set(flags).size).toBe(flags.length);
  });

  it.each([
    ['ALLOWED_TOOLS', 'allowedTools'],
    ['CLAUDE_ALLOWED_TOOLS', 'allowedTools'],
    ['SESSION_CONTINUITY', 'sessionContinuity'],
    ['CLAUDE_USE_CONTINUE', 'sessionContinuity'],
    ['SESSION_EXPIRY_HOURS', 'sessionExpiryHours'],
    ['CLAUDE_SESSION_EXPIRY_HOURS', 'sessionExpiryHours'],
    ['RALPH_VERBOSE', 'verbose'],
    ['VERBOSE_PROGRESS', 'verbose'],
    ['CLAUDE_CODE_CMD', 'claudeCommand'],
    ['MAX_TOKENS_PER_HOUR', 'maxTokensPerHour'],
  ])('%s is read as %s', (name, field) => {
    expect(FIELD_BY_NAME.get(name)).toBe(field);
  });

  it('informational and unsupported keys never collide with real keys', () => {
    for (const name of FIELD_BY_NAME.keys()) {
      expect(INFORMATIONAL_KEYS.has(name)).toBe(false);
      expect(UNSUPPORTED_KEY.test(name)).toBe(false);
    }
  });

  it.each(['SANDBOX_PROVIDER', 'SYNC_EXCLUDE', 'GITHUB_ISSUE', 'CREATE_FOLLOWUPS', 'LINK_ISSUE', 'CLOSE_SUMMARY'])('%s is an unsupported family', (name) => {
    expect(UNSUPPORTED_KEY.test(name)).toBe(true);
  });

  it.each(['GITHUB_TASK_LABEL', 'GITHUB_ISSUE_NUMBER', 'MY_SANDBOX_'])('%s is not mistaken for an unsupported family', (name) => {
    expect(UNSUPPORTED_KEY.test(name)).toBe(false);
  });

  it('every key documents itself', () => {
    for (const field of CONFIG_FIELDS) expect(CONFIG_KEYS[field].doc.length).toBeGreaterThan(5);
  });
});

describe('defaultConfig', () => {
  it('returns a fresh copy each time', () => {
    const a = defaultConfig();
    a.allowedTools.push('Mutated');
    a.optionalSections.length = 0;
    a.verifyEnv['X'] = '1';
    a.claudeCommand[0] = 'other';
    const b = defaultConfig();
    expect(b.allowedTools).toEqual(DEFAULT_ALLOWED_TOOLS);
    expect(b.optionalSections).toHaveLength(4);
    expect(b.verifyEnv).toEqual({});
    expect(b.claudeCommand).toEqual(['claude']);
    expect(DEFAULT_ALLOWED_TOOLS).not.toContain('Mutated');
  });
});
