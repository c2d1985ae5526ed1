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
