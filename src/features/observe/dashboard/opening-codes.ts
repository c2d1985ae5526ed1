import { sameToken } from './request-guard.js';

/** How long the address handed to the browser opener stays good. */
export const OPENING_CODE_TTL_MS = 60_000;

/**
 * One-time codes for the address Ralph hands to the program that opens the
 * browser. That program's command line (and the browser's, when the opener
 * starts it) can be read by every user of the machine through /proc, so it
 * never carries the dashboard's token: it carries a code the page trades for
 * the token once. A code works one time only and for OPENING_CODE_TTL_MS;
 * after that, whoever read it from /proc holds nothing.
 */
export class OpeningCodes {
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly randomCode: () => string,
    private readonly ttlMs = OPENING_CODE_TTL_MS,
  ) {}

  /** A new code, good once until the time-to-live has passed. */
  issue(): string {
    this.forgetExpired();
    const code = this.randomCode();
    this.codes.set(code, this.now() + this.ttlMs);
    return code;
  }

  /** True once for a code issued here and not expired; the code is dead afterwards, whatever the answer. */
  redeem(given: string): boolean {
    this.forgetExpired();
    // Compared one by one in constant time: a lookup by key could tell by its timing how close a guess was.
    for (const [code, expiresAt] of this.codes) {
      if (!sameToken(code, given)) continue;
      this.codes.delete(code);
      return this.now() < expiresAt;
    }
    return false;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [code, expiresAt] of this.codes) if (now >= expiresAt) this.codes.delete(code);
  }
}
