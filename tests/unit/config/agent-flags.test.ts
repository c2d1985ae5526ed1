import { describe, expect, it } from 'vitest';
import { routeAgentFlags, selectedBackend } from '../../../src/config/agent-flags.js';
import { agentSettingField, BACKEND_NAMES } from '../../../src/backends/agents.js';
import { load } from '../support/config.js';

describe('routeAgentFlags', () => {
  it('sets the selected backend its own model and effort keys', () => {
    const routed = routeAgentFlags({ model: 'opus', effort: 'high', maxLoops: '3' }, 'claude');
    expect(routed.flags).toEqual({ model: 'opus', effort: 'high', maxLoops: '3' });
    expect(routed.flagNames).toEqual({ model: '--model', effort: '--effort' });
    expect(routed.warnings).toEqual([]);
  });

  it.each(BACKEND_NAMES)('%s: --model lands on its model setting or is reported as ignored', (name) => {
    const routed = routeAgentFlags({ model: 'm-1' }, name);
    const target = agentSettingField(name, 'model');
    if (target === undefined) {
      expect(routed.flags).toEqual({});
      expect(routed.warnings).toEqual([`the ${name} backend has no model setting: --model m-1 is ignored`]);
    } else {
      expect(routed.flags).toEqual({ [target]: 'm-1' });
      expect(routed.flagNames).toEqual({ [target]: '--model' });
    }
  });

  it('says once that a backend without an effort setting ignores --effort', () => {
    const routed = routeAgentFlags({ effort: 'high' }, 'mock');
    expect(routed.flags).toEqual({});
    expect(routed.warnings).toEqual(['the mock backend has no effort setting: --effort high is ignored']);
  });

  it('takes the backend from a valid --backend flag, else from the lower layers', () => {
    expect(selectedBackend({ backend: ' MOCK ' }, 'claude')).toBe('mock');
    expect(selectedBackend({ backend: 'nope' }, 'mock')).toBe('mock');
    expect(selectedBackend({}, 'claude')).toBe('claude');
  });
});

describe('loadConfig with --model', () => {
  it('keeps the .ralphrc model of a backend the flag does not target', () => {
    const loaded = load({ rc: 'CLAUDE_MODEL=sonnet\nRALPH_BACKEND=mock\n', flags: { model: 'x', effort: 'low' } });
    expect(loaded.config.model).toBe('sonnet');
    expect(loaded.warnings).toEqual([
      'the mock backend has no model setting: --model x is ignored',
      'the mock backend has no effort setting: --effort low is ignored',
    ]);
  });

  it('names the flag as the origin of the field it set', () => {
    const loaded = load({ rc: 'CLAUDE_MODEL=sonnet\n', flags: { backend: 'claude', model: 'opus' } });
    expect(loaded.config.model).toBe('opus');
    expect(loaded.origins.model).toEqual({ source: 'flag', where: '--model' });
  });
});
