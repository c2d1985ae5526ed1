import { describe, expect, it } from 'vitest';
import { capabilityWarnings } from '../../../src/backends/capability-warnings.js';
import { BACKEND_NAMES, backendEntry } from '../../../src/backends/registry.js';

const config = { sessionContinuity: true, maxCostUsd: 5, live: true };
const all = { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true };

describe('capabilityWarnings', () => {
  it.each(BACKEND_NAMES)('%s can do everything the configuration asks', (name) => {
    expect(capabilityWarnings(backendEntry(name), config)).toEqual([]);
  });

  it('names each missing capability the configuration relies on', () => {
    const none = {
      displayName: 'Some CLI',
      capabilities: { resume: false, cost: false, liveView: false, permissionDenials: false, usageLimits: false, allowedTools: false },
    };
    expect(capabilityWarnings(none, config)).toEqual([
      'Some CLI cannot continue a conversation: every loop starts a new one.',
      'Some CLI reports no cost: --max-cost is not enforced.',
      "Some CLI does not stream its progress: --live shows each call's result only.",
      'Some CLI does not report refused tool calls: Ralph cannot stop for missing permissions (exit 4).',
    ]);
    expect(capabilityWarnings(none, { sessionContinuity: false, maxCostUsd: 0, live: false })).toHaveLength(1);
    expect(capabilityWarnings({ displayName: 'X', capabilities: all }, { sessionContinuity: false, maxCostUsd: 0, live: false })).toEqual([]);
  });
});

describe('capabilityWarnings: subscription windows', () => {
  const base = { sessionContinuity: false, maxCostUsd: 0, live: false };
  const warning = { at: 'warning' as const, windows: [] };
  const percent = { at: 80, windows: [] };

  it('says once that an agent without windows never triggers the rules given', () => {
    expect(capabilityWarnings(backendEntry('gemini'), { ...base, parkAt: warning, stopAt: null })).toEqual([
      'Gemini CLI reports no subscription windows: --park-at never triggers.',
    ]);
    expect(capabilityWarnings(backendEntry('opencode'), { ...base, parkAt: percent, stopAt: warning })).toEqual([
      'OpenCode reports no subscription windows: --park-at and --stop-at never trigger.',
    ]);
  });

  it('tells a Codex user to use a percentage: Codex gives no warning of its own', () => {
    expect(capabilityWarnings(backendEntry('codex'), { ...base, parkAt: warning, stopAt: percent })).toEqual([
      'Codex CLI reports its subscription windows as percentages, with no warning of its own: give --park-at a percentage, e.g. 80%.',
    ]);
    expect(capabilityWarnings(backendEntry('codex'), { ...base, parkAt: percent, stopAt: null })).toEqual([]);
  });

  it('says nothing without the flags, or for Claude Code, which reports both', () => {
    expect(capabilityWarnings(backendEntry('gemini'), { ...base, parkAt: null, stopAt: null })).toEqual([]);
    expect(capabilityWarnings(backendEntry('claude'), { ...base, parkAt: warning, stopAt: percent })).toEqual([]);
  });
});
