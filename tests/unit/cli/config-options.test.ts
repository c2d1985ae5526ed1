import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, CONFIG_KEYS, type ConfigField } from '../../../src/config/keys.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { ValueType } from '../../../src/config/value-types.js';
import { flagHelp, flagSyntax } from '../../../src/cli/config-options.js';
import { createRalphProgram, parseRalphArgs } from '../../../src/cli/ralph-args.js';

const silent = { out: () => undefined, err: () => undefined };

function helpOf(argv: string[]): string {
  const program = createRalphProgram('0.0.0', () => undefined, silent);
  const sub = argv[0] ? program.commands.find((c) => c.name() === argv[0]) : undefined;
  return (sub ?? program).helpInformation();
}

/** A value each key accepts, so the flag's value also survives config loading. */
const SAMPLES: Partial<Record<ConfigField, string>> = {
  allowedTools: 'Read,Edit',
  model: 'sonnet',
  effort: 'high',
  maxLoops: '3',
  maxCostUsd: '1.5',
  maxRuntimeMinutes: '10',
  maxTokensPerHour: '1000',
  verifyCommand: 'npm test',
  verifyPreset: 'fast',
  verifyCwd: 'packages/app',
  verifyEnv: 'CI=1',
  agentEnv: 'GITHUB_TOKEN',
  onVerifyExhausted: 'abort',
};

function sampleValue(field: ConfigField): string {
  const spec = CONFIG_KEYS[field] as { type: ValueType<unknown>; default: unknown };
  return SAMPLES[field] ?? spec.type.format(spec.default);
}

const WITH_FLAG = CONFIG_FIELDS.filter((field) => CONFIG_KEYS[field].flag !== undefined);

describe('config flags come from the key registry', () => {
  it('most keys that users tune per run have a flag', () => {
    expect(WITH_FLAG.length).toBeGreaterThanOrEqual(30);
  });

  it.each(WITH_FLAG)('%s is documented in ralph --help and ralph run --help', (field) => {
    const flag = CONFIG_KEYS[field].flag!;
    for (const help of [helpOf([]), helpOf(['run'])]) {
      expect(help).toContain(flagSyntax(flag));
      // Help wraps long lines; compare with the whitespace folded.
      expect(help.replace(/\s+/g, ' ')).toContain(flagHelp(field));
      if (flag.off) expect(help).toContain(flag.off.name);
    }
  });

  it.each(WITH_FLAG)('%s is accepted and reaches the config with its value', async (field) => {
    const flag = CONFIG_KEYS[field].flag!;
    const argv = flag.value ? [flag.name, sampleValue(field)] : [flag.name];
    const args = await parseRalphArgs(argv, '0.0.0', silent);
    expect(args?.flags[field]).toBeDefined();
    const loaded = loadConfig({ env: {}, flags: args!.flags });
    expect(loaded.errors).toEqual([]);
    expect(loaded.origins[field]).toEqual({ source: 'flag', where: flag.name });
  });

  it('the short alias and the switch that turns a setting off work too', async () => {
    const args = await parseRalphArgs(['-c', '7', '-t', '3', '-p', 'P.md', '-v', '-l', '-n', '-b', '--no-checkpoint', '--no-continue'], '0.0.0', silent);
    expect(args?.flags).toEqual({
      maxCallsPerHour: '7',
      timeoutMinutes: '3',
      promptFile: 'P.md',
      verbose: true,
      live: true,
      notify: true,
      backup: true,
      checkpoint: false,
      sessionContinuity: false,
    });
  });

  it('repeatable flags add up', async () => {
    const args = await parseRalphArgs(['--verify-env', 'A=1', '--verify-env', 'B=2', '--agent-env', 'X', '--agent-env', 'Y'], '0.0.0', silent);
    expect(args?.flags).toEqual({ verifyEnv: ['A=1', 'B=2'], agentEnv: ['X', 'Y'] });
  });

  it('the help says a default only where it tells something', () => {
    expect(flagHelp('maxCallsPerHour')).toBe('agent calls allowed per hour (default 100)');
    expect(flagHelp('promptFile')).toBe('prompt file (default .ralph/PROMPT.md)');
    expect(flagHelp('maxLoops')).toBe('stop after N iterations (exit 7)');
    expect(flagHelp('live')).toBe("stream the agent's output as it arrives");
    expect(flagHelp('allowedTools')).not.toContain('default');
    expect(flagHelp('claudeCommand')).toBe('');
  });

  it('flags typed by nobody are not reported as given', async () => {
    expect((await parseRalphArgs([], '0.0.0', silent))?.flags).toEqual({});
  });
});
