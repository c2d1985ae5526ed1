import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Who may talk to the dashboard: a request must carry the run's token and name
 * this server as its Host (a page on another site that resolves its own name to
 * 127.0.0.1 sends its own name, and is refused), and a POST from a browser must
 * come from the dashboard's own page (Origin).
 */
export interface GuardConfig {
  token: string;
  /**
   * `host:port` values this server answers to; `any` when it listens on every
   * address (0.0.0.0, ::), where the names people reach it by cannot be known:
   * the page's origin is then whatever host the request names.
   */
  hosts: readonly string[] | 'any';
  /** `http://host:port` values of the page (one per name in `hosts`). */
  origins: readonly string[];
  /** Cookie carrying the token for the page's own requests (assets, the event stream). */
  cookieName: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403 | 421; reason: string };

export const TOKEN_HEADER = 'x-ralph-token';

/** Whether two tokens are the same, in time that does not depend on where they differ. */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Hosts a server answers to: the address it listens on (and the names of loopback for a loopback one); `any` for every address. */
export function allowedHosts(host: string, port: number): string[] | 'any' {
  if (host === '0.0.0.0' || host === '::') return 'any';
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const names = new Set([bracketed]);
  if (isLoopback(host)) for (const name of ['127.0.0.1', 'localhost', '[::1]']) names.add(name);
  return [...names].map((name) => `${name}:${port}`);
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Checks one request. `queryToken` is the `?token=` of the URL, accepted for
 * GETs only (the address `ralph dashboard` prints); a POST must carry the
 * token in its header, which a page of another origin cannot set without the
 * browser asking this server first (and it never says yes).
 */
export function checkRequest(config: GuardConfig, method: string, headers: IncomingHttpHeaders, queryToken: string | undefined): GuardVerdict {
  const host = first(headers.host)?.toLowerCase();
  if (host === undefined || (config.hosts !== 'any' && !config.hosts.includes(host))) {
    return { ok: false, status: 421, reason: `this dashboard answers to ${config.hosts === 'any' ? 'a named host' : (config.hosts[0] ?? '')} only` };
  }
  const origins = config.hosts === 'any' ? [`http://${host}`] : config.origins;
  const origin = first(headers.origin);
  if (method !== 'GET' && method !== 'HEAD') {
    if (origin !== undefined && !origins.includes(origin)) return { ok: false, status: 403, reason: `requests from ${origin} are refused` };
    if (!sameToken(config.token, first(headers[TOKEN_HEADER]))) return { ok: false, status: 401, reason: 'missing or wrong token' };
    return { ok: true };
  }
  if (origin !== undefined && !origins.includes(origin)) return { ok: false, status: 403, reason: `requests from ${origin} are refused` };
  const cookie = cookieValue(first(headers.cookie), config.cookieName);
  const given = [queryToken, first(headers[TOKEN_HEADER]), cookie];
  if (!given.some((token) => sameToken(config.token, token))) return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}
