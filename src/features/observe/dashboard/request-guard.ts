import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Who may talk to the dashboard: a request must name this server as its Host
 * (a page on another site that resolves its own name to 127.0.0.1 sends its own
 * name, and is refused), a request from a browser page must come from the
 * dashboard's own page (Origin), and everything but the page's own files must
 * carry the run's token in a header. No cookie ever carries the token: a
 * cookie is not bound to a port, so the browser would hand it to every other
 * server on 127.0.0.1 it visits. The page keeps the token for itself
 * (sessionStorage, which is per origin: scheme, host and port).
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
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403 | 421; reason: string };

/** The header every request of the page carries the token in; a page of another origin cannot set it without this server agreeing (it never does). */
export const TOKEN_HEADER = 'x-ralph-token';

/** Where the page trades the one-time code of the address it was opened with for the token. */
export const SESSION_PATH = '/api/session';

/** Whether two tokens are the same, in time that does not depend on where they differ. */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Requests that need no token: the page and its script and styles (built into
 * the package, the same for everyone, holding no data; a browser opening the
 * address cannot add a header to it), and the trade of a one-time code.
 */
export function isPublicRequest(method: string, pathname: string): boolean {
  if (method === 'GET' || method === 'HEAD') return !pathname.startsWith('/api/');
  return method === 'POST' && pathname === SESSION_PATH;
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

/** Checks one request; `isPublic` (isPublicRequest) says whether it may come without the token. */
export function checkRequest(config: GuardConfig, headers: IncomingHttpHeaders, isPublic: boolean): GuardVerdict {
  const host = first(headers.host)?.toLowerCase();
  if (host === undefined || (config.hosts !== 'any' && !config.hosts.includes(host))) {
    return { ok: false, status: 421, reason: `this dashboard answers to ${config.hosts === 'any' ? 'a named host' : (config.hosts[0] ?? '')} only` };
  }
  const origins = config.hosts === 'any' ? [`http://${host}`] : config.origins;
  const origin = first(headers.origin);
  if (origin !== undefined && !origins.includes(origin)) return { ok: false, status: 403, reason: `requests from ${origin} are refused` };
  if (!isPublic && !sameToken(config.token, first(headers[TOKEN_HEADER]))) return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}
