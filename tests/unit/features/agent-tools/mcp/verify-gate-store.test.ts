import { describe, expect, it } from 'vitest';
import { createGate } from '../../../../../src/core/verify-gate.js';
import { STORED_GATE, defaultGateId, gateFileName } from '../../../../../src/features/agent-tools/mcp/verify-gate-store.js';
import { parseOrReason } from '../../../../helpers/parse-document.js';

const normalizeStoredGate = (value: unknown) => parseOrReason(STORED_GATE.schema, value);

describe('gate files', () => {
  it('names files after the id, with a hash so distinct ids never collide', () => {
    expect(gateFileName('fix-auth')).toMatch(/^fix-auth-[0-9a-f]{10}\.json$/);
    expect(gateFileName('a/b')).not.toBe(gateFileName('a_b'));
    expect(gateFileName('../../etc/passwd')).not.toContain('/');
  });

  it('derives one default gate per directory and command', () => {
    expect(defaultGateId('/p', 'npm test')).toBe(defaultGateId('/p', 'npm test'));
    expect(defaultGateId('/p', 'npm test')).not.toBe(defaultGateId('/q', 'npm test'));
    expect(defaultGateId('/p', 'npm test')).toMatch(/^verify-[0-9a-f]{12}$/);
  });

  it('reads a stored gate and refuses damaged ones', () => {
    const stored = {
      version: 1,
      gate: createGate('npm test', 5, 'g'),
      cwd: '/p',
      checkpoint: false,
      rollback: false,
      timeoutSecs: 300,
      baseline: null,
      updatedAt: 1,
    };
    expect(normalizeStoredGate(stored)).toEqual(stored);
    expect(normalizeStoredGate({ ...stored, timeoutSecs: 0 })).toBe('timeoutSecs is damaged');
    expect(normalizeStoredGate({ ...stored, gate: { ...stored.gate, attempt: -1 } })).toContain('attempt');
    expect(normalizeStoredGate({ ...stored, baseline: { id: 'x' } })).toEqual(expect.any(String));
  });
});
