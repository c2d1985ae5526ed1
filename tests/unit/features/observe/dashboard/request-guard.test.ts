import { describe, expect, it } from 'vitest';
import { parseControlRequest } from '../../../../../src/features/observe/dashboard/dashboard-controls.js';
import { allowedHosts, checkRequest, isLoopback, isPublicRequest, type GuardConfig } from '../../../../../src/features/observe/dashboard/request-guard.js';

const TOKEN = 'abc123_-XYZ';
const hosts = allowedHosts('127.0.0.1', 4000);
const config: GuardConfig = { token: TOKEN, hosts, origins: hosts === 'any' ? [] : hosts.map((h) => `http://${h}`) };
const everywhere: GuardConfig = { token: TOKEN, hosts: 'any', origins: [] };
const HOST = { host: '127.0.0.1:4000' };

describe('checkRequest', () => {
  it.each([
    ['a request with the token header', { ...HOST, 'x-ralph-token': TOKEN }, false, { ok: true }],
    ['a request from the page with the token header', { ...HOST, origin: 'http://127.0.0.1:4000', 'x-ralph-token': TOKEN }, false, { ok: true }],
    ['a request under the name localhost', { host: 'localhost:4000', 'x-ralph-token': TOKEN }, false, { ok: true }],
    ['a request without a token', HOST, false, { ok: false, status: 401 }],
    ['a request with a wrong token', { ...HOST, 'x-ralph-token': 'abc123_-XYz' }, false, { ok: false, status: 401 }],
    // The cookie the dashboard used to set: it reached every server on 127.0.0.1, so it opens nothing now.
    ['a request with the old token cookie only', { ...HOST, cookie: `ralph_dashboard_4000=${TOKEN}` }, false, { ok: false, status: 401 }],
    ['the page itself, without a token', HOST, true, { ok: true }],
    ['naming another host (DNS rebinding), even for the page', { host: 'evil.example:4000' }, true, { ok: false, status: 421 }],
    ['without a Host', { 'x-ralph-token': TOKEN }, false, { ok: false, status: 421 }],
    ['from another origin, even with the token', { ...HOST, origin: 'http://evil.example', 'x-ralph-token': TOKEN }, false, { ok: false, status: 403 }],
    ['from another origin, for a public path', { ...HOST, origin: 'http://evil.example' }, true, { ok: false, status: 403 }],
  ] as const)('%s', (_name, headers, isPublic, verdict) => {
    expect(checkRequest(config, headers, isPublic)).toMatchObject(verdict);
  });
});

describe('isPublicRequest: only the page, its files and the trade of a one-time code need no token', () => {
  it.each([
    ['GET', '/', true],
    ['GET', '/app.js', true],
    ['HEAD', '/style.css', true],
    ['POST', '/api/session', true],
    ['GET', '/api/session', false],
    ['GET', '/api/state', false],
    ['GET', '/api/events', false],
    ['POST', '/api/loops/main/stop', false],
    ['PUT', '/', false],
  ])('%s %s → %s', (method, path, expected) => {
    expect(isPublicRequest(method, path)).toBe(expected);
  });
});

describe('checkRequest on every address (--host 0.0.0.0 --allow-remote)', () => {
  it.each([
    ['a request by a LAN address with the token', { host: '192.168.1.5:4000', 'x-ralph-token': TOKEN }, { ok: true }],
    ['a request without the token', { host: '192.168.1.5:4000' }, { ok: false, status: 401 }],
    ['from the page at the address the request names', { host: '192.168.1.5:4000', origin: 'http://192.168.1.5:4000', 'x-ralph-token': TOKEN }, { ok: true }],
    ['from another origin', { host: '192.168.1.5:4000', origin: 'http://evil.example', 'x-ralph-token': TOKEN }, { ok: false, status: 403 }],
  ] as const)('%s', (_name, headers, verdict) => {
    expect(checkRequest(everywhere, headers, false)).toMatchObject(verdict);
  });
});

describe('hosts', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['192.168.1.2', false],
    ['example.com', false],
  ])('isLoopback(%s) is %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });

  it('a loopback server answers to every loopback name; another host only to itself', () => {
    expect(allowedHosts('127.0.0.1', 80)).toEqual(['127.0.0.1:80', 'localhost:80', '[::1]:80']);
    expect(allowedHosts('::1', 80)).toEqual(['[::1]:80', '127.0.0.1:80', 'localhost:80']);
    expect(allowedHosts('192.168.1.2', 80)).toEqual(['192.168.1.2:80']);
    expect(allowedHosts('0.0.0.0', 80)).toBe('any');
    expect(allowedHosts('::', 80)).toBe('any');
  });
});

describe('parseControlRequest', () => {
  it.each([
    ['stop', {}, { action: 'stop' }],
    ['reset-circuit', {}, { action: 'reset-circuit' }],
    ['gate', { answer: 'retry' }, { action: 'gate', answer: 'retry' }],
    ['gate', { answer: 'abort' }, { action: 'gate', answer: 'abort' }],
    ['gate', { answer: 'delete' }, undefined],
    ['gate', {}, undefined],
    ['gate', null, undefined],
    ['restore', {}, undefined],
  ])('%s %j', (action, body, request) => {
    expect(parseControlRequest(action, body)).toEqual(request);
  });
});
