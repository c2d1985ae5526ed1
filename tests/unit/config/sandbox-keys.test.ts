import { describe, expect, it } from 'vitest';
import { load } from '../support/config.js';

describe('sandbox settings', () => {
  it('are off and empty by default; with the sandbox on, the verify command runs inside it', () => {
    const { config } = load({});
    expect(config).toMatchObject({ sandbox: false, sandboxAllowDomains: [], sandboxAllowWrite: [], sandboxVerify: true, verifyOutsideSandbox: false });
  });

  it('read hosts and paths from .ralphrc, and repeated flags add to them', () => {
    const loaded = load({
      rc: 'RALPH_SANDBOX=true\nRALPH_SANDBOX_ALLOW_DOMAINS="registry.npmjs.org, *.GitHub.com"\nRALPH_SANDBOX_ALLOW_WRITE="~/.cache/pip,build"\n',
      flags: { sandboxAllowDomains: ['pypi.org', '127.0.0.1:8080'], sandboxAllowWrite: ['/opt/out'], sandboxVerify: true },
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.sandbox).toBe(true);
    expect(loaded.config.sandboxVerify).toBe(true);
    expect(loaded.config.sandboxAllowDomains).toEqual(['registry.npmjs.org', '*.github.com', 'pypi.org', '127.0.0.1:8080']);
    expect(loaded.config.sandboxAllowWrite).toEqual(['~/.cache/pip', 'build', '/opt/out']);
    expect(loaded.origins.sandboxAllowDomains).toEqual({ source: 'flag', where: '--sandbox-allow-domain' });
  });

  it.each([
    ['https://example.com', 'is not a host name (a host name, not a URL)'],
    ['example.com/path', 'is not a host name (a host name, not a URL)'],
    ['exa mple.com,bad_host!', '"bad_host!" is not a host name'],
    ['example.com:99999x', 'is not a host name'],
  ])('refuse the host %j with what was expected', (value, said) => {
    const loaded = load({ flags: { sandboxAllowDomains: [value] } });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('invalid value for --sandbox-allow-domain');
    expect(loaded.errors[0]).toContain(said);
  });

  it('accepts an IPv6 literal with a port', () => {
    expect(load({ flags: { sandboxAllowDomains: ['[::1]:8080'] } }).config.sandboxAllowDomains).toEqual(['[::1]:8080']);
  });

  it.each(['/', '~', '~/'])('refuse %j as a writable path: the agent could write everywhere', (value) => {
    const loaded = load({ rc: `RALPH_SANDBOX_ALLOW_WRITE="${value}"\n` });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('RALPH_SANDBOX_ALLOW_WRITE');
    expect(loaded.errors[0]).toContain('would let the agent write everywhere');
  });
});
