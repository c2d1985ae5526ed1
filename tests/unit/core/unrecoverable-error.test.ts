import { describe, expect, it } from 'vitest';
import { detectUnrecoverable } from '../../../src/core/unrecoverable-error.js';

describe('detectUnrecoverable', () => {
  it.each([
    ['Invalid API key · Fix external API key', undefined, 'invalid_api_key'],
    ['Invalid API key · Please run /login', undefined, 'login_expired'],
    ['API Error: 401 {"error":{"type":"authentication_error","message":"invalid x-api-key"}}', 401, 'invalid_api_key'],
    ['Failed to authenticate', 401, 'invalid_api_key'],
    ['OAuth token has expired. Please obtain a new token or refresh your existing token.', undefined, 'login_expired'],
    ['OAuth token revoked', 401, 'login_expired'],
    ['Credit balance is too low', 400, 'credit_balance'],
    ['Your credit balance is too low to access the Anthropic API.', undefined, 'credit_balance'],
  ] as const)('%j (status %s) is %s', (message, status, kind) => {
    expect(detectUnrecoverable(message, status)?.kind).toBe(kind);
  });

  it.each([
    ['API Error: 500 Internal server error', 500],
    ['API Error: 529 Overloaded', 529],
    ["You've hit your session limit · resets 2:39pm (UTC)", 429],
    ['API Error: 400 prompt is too long', 400],
    ['Connection refused', undefined],
  ] as const)('%j (status %s) may pass with a retry', (message, status) => {
    expect(detectUnrecoverable(message, status)).toBeUndefined();
  });

  it('every kind says what to do', () => {
    expect(detectUnrecoverable('Invalid API key')?.advice).toMatch(/API key.*claude \/login/s);
    expect(detectUnrecoverable('OAuth token has expired')?.advice).toMatch(/claude \/login/);
    expect(detectUnrecoverable('Credit balance is too low')?.advice).toMatch(/Billing/);
  });
});
