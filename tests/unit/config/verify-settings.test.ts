import { describe, expect, it } from 'vitest';
import { loadConfig, type FlagValues } from '../../../src/config/load-config.js';
import { resolveVerifySettings } from '../../../src/config/verify-settings.js';
import { VERIFY_PRESETS } from '../../../src/core/verify-presets.js';
import { parseTaskSpec } from '../../../src/core/task-spec.js';
import { taskVerifyFlags } from '../../../src/config/task-verify-flags.js';

const project = '/work/project';
const git = { isGitRepo: true, projectDir: project };
const noGit = { isGitRepo: false, projectDir: project };

function settings(flags: FlagValues, ralphrc?: string, env: Record<string, string> = {}, context = git) {
  const loaded = loadConfig({ flags, env, ...(ralphrc ? { ralphrc: { path: '.ralphrc', text: ralphrc } } : {}) });
  expect(loaded.errors).toEqual([]);
  return resolveVerifySettings(loaded.config, loaded.origins, context);
}

describe('resolveVerifySettings: defaults', () => {
  it('has no gate without a command', () => {
    const s = settings({});
    expect(s).toMatchObject({
      command: '',
      enabled: false,
      checkpoint: false,
      timeoutMs: 300_000,
      maxAttempts: 5,
      cwd: project,
      onExhausted: 'ask',
      preset: null,
    });
  });

  it('uses spec defaults: 300 s, 5 attempts, checkpoint on in a git repo', () => {
    expect(settings({ verifyCommand: 'npm test' })).toMatchObject({
      command: 'npm test',
      enabled: true,
      timeoutMs: 300_000,
      maxAttempts: 5,
      checkpoint: true,
      rollbackOnFail: false,
    });
  });
});

describe('resolveVerifySettings: presets vs explicit values', () => {
  it.each([
    ['fast', 1, 30],
    ['full', 5, 300],
    ['extended', 10, 600],
  ] as const)('preset %s → %i attempts / %i s', (preset, attempts, seconds) => {
    const s = settings({ verifyCommand: 'npm test', verifyPreset: preset });
    expect(s).toMatchObject({ preset, maxAttempts: attempts, timeoutMs: seconds * 1000, sources: { timeout: 'preset', maxAttempts: 'preset' } });
    expect(VERIFY_PRESETS[preset]).toEqual({ maxAttempts: attempts, timeoutSeconds: seconds });
  });

  it('an explicit flag beats the preset, the other value still comes from the preset', () => {
    const s = settings({ verifyCommand: 'npm test', verifyPreset: 'fast', verifyTimeoutSeconds: '120' });
    expect(s).toMatchObject({ timeoutMs: 120_000, maxAttempts: 1, sources: { timeout: 'explicit', maxAttempts: 'preset' } });
  });

  it('a value from .ralphrc or the environment also beats the preset', () => {
    expect(settings({ verifyPreset: 'extended' }, 'VERIFY_COMMAND="npm test"\nVERIFY_MAX_ATTEMPTS=3\n')).toMatchObject({ maxAttempts: 3, timeoutMs: 600_000 });
    expect(settings({ verifyCommand: 'x', verifyPreset: 'extended' }, undefined, { VERIFY_TIMEOUT: '45' })).toMatchObject({
      timeoutMs: 45_000,
      maxAttempts: 10,
    });
  });

  it('an explicit value equal to the default still counts as explicit (the quirk in P§2.1 fixed)', () => {
    const s = settings({ verifyCommand: 'x', verifyPreset: 'fast', verifyTimeoutSeconds: '300' });
    expect(s.timeoutMs).toBe(300_000);
    expect(s.sources.timeout).toBe('explicit');
  });
});

describe('resolveVerifySettings: checkpoint and rollback', () => {
  it.each([
    ['auto, command, git', {}, git, true],
    ['auto, no command', { verifyCommand: '' }, git, false],
    ['auto, no git', {}, noGit, false],
    ['on', { checkpoint: true }, git, true],
    ['off', { checkpoint: false }, git, false],
  ] as const)('%s', (_name, flags, context, expected) => {
    expect(settings({ verifyCommand: 'npm test', ...flags }, undefined, {}, context).checkpoint).toBe(expected);
  });

  it('checkpoint on outside git: off, with a warning', () => {
    const s = settings({ verifyCommand: 'x', checkpoint: true }, undefined, {}, noGit);
    expect(s.checkpoint).toBe(false);
    expect(s.warnings.join('\n')).toContain('not one');
  });

  it('rollback needs checkpoints', () => {
    expect(settings({ verifyCommand: 'x', rollbackOnFail: true }).rollbackOnFail).toBe(true);
    const off = settings({ verifyCommand: 'x', rollbackOnFail: true, checkpoint: false });
    expect(off.rollbackOnFail).toBe(false);
    expect(off.warnings.join('\n')).toContain('needs checkpoints');
  });

  it('keeps the checkpoint count and the exhaustion policy', () => {
    expect(settings({ verifyCommand: 'x', onVerifyExhausted: 'skip' }, 'CHECKPOINT_KEEP=2\n')).toMatchObject({ checkpointKeep: 2, onExhausted: 'skip' });
  });
});

describe('resolveVerifySettings: directory and environment', () => {
  it.each([
    ['', project],
    ['./packages/core', `${project}/packages/core`],
    ['packages/core/', `${project}/packages/core/`],
    ['/abs/dir', '/abs/dir'],
  ])('cwd %j → %s', (dir, expected) => {
    expect(settings({ verifyCommand: 'x', verifyCwd: dir }).cwd).toBe(expected);
  });

  it('passes the explicit --verify-env pairs through', () => {
    expect(settings({ verifyCommand: 'x', verifyEnv: ['A=1', 'B=2'] }).env).toEqual({ A: '1', B: '2' });
  });
});

describe('task mode through the same layering', () => {
  it('>>fix-auth :: verify:"npm test" :fast timeout:120 → 1 attempt, 120 s', () => {
    const parsed = parseTaskSpec('>>fix-auth :: verify:"npm test" :fast timeout:120 checkpoint:true rollback:true workingDir:"./packages/core"');
    if (!parsed.ok) throw new Error(parsed.error.message);
    const s = settings(taskVerifyFlags(parsed.spec.verify!));
    expect(s).toMatchObject({
      command: 'npm test',
      maxAttempts: 1,
      timeoutMs: 120_000,
      checkpoint: true,
      rollbackOnFail: true,
      cwd: `${project}/packages/core`,
    });
  });
});
