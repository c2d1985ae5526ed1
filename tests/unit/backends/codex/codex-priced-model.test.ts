import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pricedModel, readCodexConfig, topLevelModel } from '../../../../src/backends/codex/codex-priced-model.js';
import { tempDir } from '../../../helpers/temp-dir.js';

describe('pricedModel', () => {
  it('takes CODEX_MODEL first, then a model flag of the extra arguments, then Codex’s config', () => {
    const toml = 'model = "gpt-5.1-codex"\n';
    expect(pricedModel('gpt-5', ['-m', 'o3'], toml)).toBe('gpt-5');
    expect(pricedModel('', ['--enable', 'x', '-m', 'o3'], toml)).toBe('o3');
    expect(pricedModel('', ['--model=gpt-5-mini'], toml)).toBe('gpt-5-mini');
    expect(pricedModel('', [], toml)).toBe('gpt-5.1-codex');
    expect(pricedModel('', [], undefined)).toBe('');
  });
});

describe('topLevelModel', () => {
  it('reads the top-level model, never one of a table', () => {
    expect(topLevelModel("# mine\nmodel_provider = 'x'\nmodel = 'gpt-5'\n")).toBe('gpt-5');
    expect(topLevelModel('[profiles.fast]\nmodel = "gpt-5-mini"\n')).toBe('');
    expect(topLevelModel('model_reasoning_effort = "high"\n')).toBe('');
  });
});

describe('readCodexConfig', () => {
  it('reads $CODEX_HOME/config.toml, else ~/.codex/config.toml', () => {
    const home = tempDir();
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), 'model = "a"\n');
    const codexHome = tempDir();
    writeFileSync(join(codexHome, 'config.toml'), 'model = "b"\n');
    expect(readCodexConfig({ HOME: home })).toBe('model = "a"\n');
    expect(readCodexConfig({ HOME: home, CODEX_HOME: codexHome })).toBe('model = "b"\n');
    expect(readCodexConfig({ HOME: join(home, 'none') })).toBeUndefined();
    expect(readCodexConfig({})).toBeUndefined();
  });
});
