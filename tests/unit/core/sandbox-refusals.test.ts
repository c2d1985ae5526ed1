import { describe, expect, it } from 'vitest';
import { refusalOf, RefusalTally, summarizeRefusals } from '../../../src/core/sandbox-refusals.js';

describe('refusalOf', () => {
  it.each([
    ['deny network-outbound blocked.example:443 (host is not on the allow list)', 'network'],
    ['deny openat /home/u/escaped.txt', 'write'],
    ['deny unlinkat /etc/hosts', 'write'],
    ['deny mach-lookup com.apple.x', 'other'],
  ])('%j is a %s refusal', (line, kind) => {
    expect(refusalOf(line)).toEqual({ kind, detail: line });
  });

  it('keeps at most 500 characters of a line', () => {
    expect(refusalOf(`deny openat /${'x'.repeat(900)}`).detail).toHaveLength(500);
  });
});

describe('summarizeRefusals', () => {
  it('says nothing when nothing was refused', () => {
    expect(summarizeRefusals(new RefusalTally())).toEqual([]);
  });

  it('counts, shows the most frequent first, and says how to widen the policy', () => {
    const tally = new RefusalTally();
    tally.add(refusalOf('deny openat /home/u/a'));
    for (let i = 0; i < 3; i += 1) tally.add(refusalOf('deny network-outbound registry.npmjs.org:443 (host is not on the allow list)'));
    expect(tally.total()).toBe(4);
    expect(summarizeRefusals(tally)).toEqual([
      'The sandbox refused 4 actions this run:',
      '  3× deny network-outbound registry.npmjs.org:443 (host is not on the allow list)',
      '  1× deny openat /home/u/a',
      '  If the agent needs that, allow it knowingly with --sandbox-allow-domain <host> or --sandbox-allow-write <path>.',
    ]);
  });

  it('points at the session recording when there are more than it shows', () => {
    const tally = new RefusalTally();
    for (let i = 0; i < 7; i += 1) tally.add(refusalOf(`deny network-outbound h${i}.example:443`));
    const lines = summarizeRefusals(tally, 5);
    expect(lines).toHaveLength(1 + 5 + 2);
    expect(lines[6]).toBe('  … and 2 more (see .ralph/logs/session.jsonl)');
    expect(lines[7]).toContain('--sandbox-allow-domain <host>.');
  });
});
