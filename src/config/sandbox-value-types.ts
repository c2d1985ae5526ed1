import type { ValueType } from './value-types.js';

/**
 * A host the sandbox's proxy may let through: a name (`registry.npmjs.org`), a wildcard over
 * its subdomains (`*.github.com`), an IPv4 literal or a bracketed IPv6 one, each with an
 * optional `:port`. The proxy matches names, so a URL or a path is a mistake worth saying.
 */
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?(:\d{1,5})?$/i;
const IPV6 = /^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

function splitList(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export const domainList: ValueType<string[]> = {
  expected: 'host names separated by commas (example.com, *.example.com, host:port)',
  parse(raw) {
    const hosts = splitList(raw);
    for (const host of hosts) {
      if (!HOST.test(host) && !IPV6.test(host)) {
        const hint = host.includes('://') || host.includes('/') ? ' (a host name, not a URL)' : '';
        return { ok: false, expected: `${this.expected}; "${host}" is not a host name${hint}` };
      }
    }
    return { ok: true, value: [...new Set(hosts.map((h) => h.toLowerCase()))] };
  },
  format: (v) => v.join(','),
};

/** Paths separated by commas: absolute, `~/…` (the home directory) or relative to the project. */
export const pathList: ValueType<string[]> = {
  expected: 'paths separated by commas (absolute, ~/dir, or relative to the project)',
  parse(raw) {
    const paths = raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    for (const path of paths) {
      if (path.includes('\0')) return { ok: false, expected: `${this.expected}; a path holds a NUL character` };
      if (path === '/' || path === '~' || path === '~/') return { ok: false, expected: `${this.expected}; "${path}" would let the agent write everywhere` };
    }
    return { ok: true, value: [...new Set(paths)] };
  },
  format: (v) => v.join(','),
};
