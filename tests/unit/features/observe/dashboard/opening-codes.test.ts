import { describe, expect, it } from 'vitest';
import { OPENING_CODE_TTL_MS, OpeningCodes } from '../../../../../src/features/observe/dashboard/opening-codes.js';

function codes(): { codes: OpeningCodes; clock: { now: number } } {
  const clock = { now: 1_000 };
  let n = 0;
  return {
    codes: new OpeningCodes(
      () => clock.now,
      () => `code-${(n += 1)}`,
    ),
    clock,
  };
}

describe('the one-time codes of the address handed to the browser opener', () => {
  it('a code works once', () => {
    const { codes: c } = codes();
    const code = c.issue();
    expect(c.redeem(code)).toBe(true);
    expect(c.redeem(code)).toBe(false);
  });

  it(`a code is dead ${OPENING_CODE_TTL_MS / 1000} s after it was issued, and a try after that does not revive it`, () => {
    const { codes: c, clock } = codes();
    const code = c.issue();
    clock.now += OPENING_CODE_TTL_MS - 1;
    const second = c.issue();
    clock.now += 1;
    expect(c.redeem(code)).toBe(false);
    expect(c.redeem(second)).toBe(true);
  });

  it('a code never issued, an empty one and a prefix of a real one are refused, and do not spend the real one', () => {
    const { codes: c } = codes();
    const code = c.issue();
    for (const guess of ['code-2', '', 'code-', `${code}x`]) expect(c.redeem(guess), guess).toBe(false);
    expect(c.redeem(code)).toBe(true);
  });
});
