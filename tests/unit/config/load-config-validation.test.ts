import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/keys.js';
import { formatConfigValue, loadConfig } from '../../../src/config/load-config.js';
import { RC, load } from '../support/config.js';
import { sweepSize } from '../../helpers/sweep-size.js';

/** Lines in a huge .ralphrc: a thousand times the 20 that are shown (200,000 under npm run fuzz). */
const MANY = sweepSize(20_000, 200_000);

/** Validation of every source (spec §2: file:line / env var / --flag, the value, what is accepted). */
describe('loadConfig: invalid values name their source, the value and what is accepted', () => {
  it.each([
    ['CLAUDE_TIMEOUT_MINUTES=0', 'CLAUDE_TIMEOUT_MINUTES="0" is invalid; expected a whole number from 1 to 120 (minutes)'],
    ['MAX_CALLS_PER_HOUR=lots', 'MAX_CALLS_PER_HOUR="lots" is invalid; expected a whole number from 1 to 100000'],
    ['CLAUDE_OUTPUT_FORMAT=xml', 'CLAUDE_OUTPUT_FORMAT="xml" is invalid; expected one of json, text'],
    ['SESSION_CONTINUITY=maybe', 'SESSION_CONTINUITY="maybe" is invalid; expected true or false'],
    ['CB_AUTO_RESET=2', 'CB_AUTO_RESET="2" is invalid; expected true or false'],
    ['CHECKPOINT=sometimes', 'CHECKPOINT="sometimes" is invalid; expected auto, true or false'],
    ['MAX_COST_USD=-1', 'MAX_COST_USD="-1" is invalid; expected a number ≥ 0 (USD)'],
    ['CLAUDE_MIN_VERSION=2.0', 'CLAUDE_MIN_VERSION="2.0" is invalid; expected a version such as 2.0.76'],
    ['ALLOWED_TOOLS="Write Read"', 'separate tool names with commas'],
  ])('.ralphrc %s', (line, message) => {
    const loaded = load({ rc: `\n\n${line}` });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain(`${RC}:3: `);
    expect(loaded.errors[0]).toContain(message);
  });

  it('keeps the default for a key whose .ralphrc value is invalid', () => {
    const loaded = load({ rc: 'CLAUDE_TIMEOUT_MINUTES=500' });
    expect(loaded.config.timeoutMinutes).toBe(15);
    expect(loaded.origins.timeoutMinutes).toEqual({ source: 'default' });
  });

  it.each([
    ['MAX_CALLS_PER_HOUR', 'abc', 'a whole number from 1 to 100000'],
    ['CLAUDE_TIMEOUT_MINUTES', '121', 'a whole number from 1 to 120 (minutes)'],
    ['CLAUDE_USE_CONTINUE', 'perhaps', 'true or false'],
    ['CB_COOLDOWN_MINUTES', '-5', 'a whole number from 0 to 100000 (minutes)'],
  ])('environment %s=%s', (name, raw, expected) => {
    const loaded = load({ env: { [name]: raw } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain(`environment variable ${name}: ${name}="${raw}" is invalid; expected ${expected}`);
  });

  it('an invalid environment value does not hide a valid .ralphrc value', () => {
    const loaded = load({ rc: 'MAX_CALLS_PER_HOUR=40', env: { MAX_CALLS_PER_HOUR: 'x' } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.config.maxCallsPerHour).toBe(40);
  });

  it('reports errors from every source at once', () => {
    const loaded = load({ rc: 'CLAUDE_OUTPUT_FORMAT=xml', env: { MAX_CALLS_PER_HOUR: '0' }, flags: { timeoutMinutes: 'abc' } });
    expect(loaded.errors).toHaveLength(3);
  });
});

describe('loadConfig: flags', () => {
  it.each(['0', '121', '-5', 'abc', '1.5', ''])('--timeout %j is rejected', (raw) => {
    const loaded = load({ flags: { timeoutMinutes: raw } });
    expect(loaded.errors).toEqual([`invalid value for --timeout: "${raw}"; expected a whole number from 1 to 120 (minutes)`]);
    expect(loaded.config.timeoutMinutes).toBe(15);
    expect(loaded.origins.timeoutMinutes).toEqual({ source: 'default' });
  });

  it.each([
    ['1', 1],
    ['120', 120],
    ['60', 60],
  ])('--timeout %j is accepted', (raw, value) => {
    const loaded = load({ flags: { timeoutMinutes: raw } });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.timeoutMinutes).toBe(value);
  });

  it.each(['0', '-1', '1.5', 'abc', '', 'ten'])('--calls %j is rejected: it must be a positive integer', (raw) => {
    const loaded = load({ flags: { maxCallsPerHour: raw } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain(`invalid value for --calls: "${raw}"`);
    expect(loaded.errors[0]).toContain('a whole number');
  });

  it.each([
    ['1', 1],
    ['7', 7],
    ['500', 500],
  ])('--calls %j is accepted', (raw, value) => {
    expect(load({ flags: { maxCallsPerHour: raw } }).config.maxCallsPerHour).toBe(value);
  });

  it.each([
    ['mcp__server__tool', ['mcp__server__tool']],
    ['Agent,Skill', ['Agent', 'Skill']],
    ['Bash(git *)', ['Bash(git *)']],
    ['WebFetch(domain:x)', ['WebFetch(domain:x)']],
    ['Write, Read, Bash(npm *)', ['Write', 'Read', 'Bash(npm *)']],
  ])('--allowed-tools %j is accepted', (raw, tools) => {
    const loaded = load({ flags: { allowedTools: raw } });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.allowedTools).toEqual(tools);
  });

  it('--allowed-tools "Write Read" is rejected with the comma hint', () => {
    const loaded = load({ flags: { allowedTools: 'Write Read' } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('invalid value for --allowed-tools: "Write Read"');
    expect(loaded.errors[0]).toContain('separate tool names with commas');
  });

  it('repeated --verify-env flags merge, the later one winning on the same key', () => {
    const loaded = load({ flags: { verifyEnv: ['A=1', 'B=2,C=3', 'A=4'] } });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.verifyEnv).toEqual({ A: '4', B: '2', C: '3' });
    expect(loaded.origins.verifyEnv).toEqual({ source: 'flag', where: '--verify-env' });
  });

  it('--verify-env adds to VERIFY_ENV from .ralphrc', () => {
    const loaded = load({ rc: 'VERIFY_ENV="X=0,A=old"', flags: { verifyEnv: ['A=new'] } });
    expect(loaded.config.verifyEnv).toEqual({ X: '0', A: 'new' });
  });

  it('--agent-env names add up with AGENT_ENV from .ralphrc, repeated or not', () => {
    const loaded = load({ rc: 'AGENT_ENV="NPM_TOKEN, GH_TOKEN"', flags: { agentEnv: ['GH_TOKEN', 'PGPASSWORD'] } });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.agentEnv).toEqual(['NPM_TOKEN', 'GH_TOKEN', 'PGPASSWORD']);
    expect(loaded.origins.agentEnv).toEqual({ source: 'flag', where: '--agent-env' });
  });

  it('an --agent-env value that is not a variable name is an error', () => {
    const loaded = load({ flags: { agentEnv: ['NPM_TOKEN=x'] } });
    expect(loaded.errors[0]).toContain('invalid value for --agent-env: "NPM_TOKEN=x"');
    expect(loaded.config.agentEnv).toEqual([]);
  });

  it('a bad --verify-env item is an error and changes nothing', () => {
    const loaded = load({ flags: { verifyEnv: ['A=1', 'oops'] } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('invalid value for --verify-env: "oops"');
    expect(loaded.config.verifyEnv).toEqual({});
  });

  it.each([
    [{ rc: 'CHECKPOINT=auto' }, 'auto'],
    [{ rc: 'CHECKPOINT=true' }, 'on'],
    [{ rc: 'CHECKPOINT=false' }, 'off'],
    [{ rc: 'CHECKPOINT=yes' }, 'on'],
    [{ env: { CHECKPOINT: 'off' } }, 'off'],
    [{ rc: 'CHECKPOINT=false', flags: { checkpoint: true } }, 'on'],
    [{ rc: 'CHECKPOINT=true', flags: { checkpoint: false } }, 'off'],
    [{}, 'auto'],
  ])('checkpoint %j → %s', (options, mode) => {
    const loaded = load(options);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.checkpoint).toBe(mode);
  });

  it('--no-continue beats CLAUDE_USE_CONTINUE=true in the environment', () => {
    const loaded = load({ env: { CLAUDE_USE_CONTINUE: 'true' }, flags: { sessionContinuity: false } });
    expect(loaded.config.sessionContinuity).toBe(false);
  });
});

describe('formatConfigValue', () => {
  it.each([
    ['allowedTools', 'Write,Read,Edit'],
    ['checkpoint', 'auto'],
    ['maxCallsPerHour', '100'],
    ['sessionContinuity', 'true'],
    ['claudeCommand', 'claude'],
  ] as const)('prints %s as it would be written in .ralphrc', (field, printed) => {
    const config = defaultConfig();
    if (field === 'allowedTools') config.allowedTools = ['Write', 'Read', 'Edit'];
    expect(formatConfigValue(config, field)).toBe(printed);
  });

  it('prints checkpoint on/off as true/false and quotes command words with spaces', () => {
    const config = defaultConfig();
    config.checkpoint = 'on';
    config.claudeCommand = ['/opt/my tools/claude'];
    expect(formatConfigValue(config, 'checkpoint')).toBe('true');
    expect(formatConfigValue(config, 'claudeCommand')).toBe('"/opt/my tools/claude"');
  });
});

describe('.ralphrc messages stay bounded', () => {
  it('a 5 MB unknown key is shown by its start', () => {
    const key = `K${'X'.repeat(5 * 1024 * 1024)}`;
    const loaded = loadConfig({ ralphrc: { path: '.ralphrc', text: `${key}=1\n` }, env: {}, flags: {} });
    expect(loaded.warnings).toEqual([`.ralphrc:1: unknown key ${key.slice(0, 80)}… (ignored)`]);
  });

  it('a 5 MB bad value is refused by its size, in a short error', () => {
    const loaded = loadConfig({ ralphrc: { path: '.ralphrc', text: `MAX_CALLS_PER_HOUR=${'9x'.repeat(2_500_000)}\n` }, env: {}, flags: {} });
    expect(loaded.errors).toHaveLength(1);
    expect((loaded.errors[0] ?? '').length).toBeLessThan(300);
    expect(loaded.errors[0]).toContain('MAX_CALLS_PER_HOUR: the value is longer than 65536 characters');
  });

  it('a long bad value under the size cap is cut in the error', () => {
    const loaded = loadConfig({ ralphrc: { path: '.ralphrc', text: `MAX_CALLS_PER_HOUR=${'9x'.repeat(30_000)}\n` }, env: {}, flags: {} });
    expect(loaded.errors).toHaveLength(1);
    expect((loaded.errors[0] ?? '').length).toBeLessThan(300);
    expect(loaded.errors[0]).toContain('…');
  });

  it(`${MANY.toLocaleString('en')} unknown keys give 20 warnings and a count`, () => {
    const text = Array.from({ length: MANY }, (_, i) => `UNKNOWN_${i}=1`).join('\n');
    const loaded = loadConfig({ ralphrc: { path: '.ralphrc', text }, env: {}, flags: {} });
    expect(loaded.warnings).toHaveLength(21);
    expect(loaded.warnings[0]).toBe('.ralphrc:1: unknown key UNKNOWN_0 (ignored)');
    expect(loaded.warnings[20]).toBe(`… and ${MANY - 20} more unknown keys (ignored)`);
    expect(loaded.warnings.join('\n').length).toBeLessThan(2000);
  });

  it(`${MANY.toLocaleString('en')} bad lines give 20 errors and a count`, () => {
    const text = Array.from({ length: MANY }, () => 'not a setting').join('\n');
    const loaded = loadConfig({ ralphrc: { path: '.ralphrc', text }, env: {}, flags: {} });
    expect(loaded.errors).toHaveLength(21);
    expect(loaded.errors[20]).toBe(`… and ${MANY - 20} more problems`);
  });
});
