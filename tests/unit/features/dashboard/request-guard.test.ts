import { describe, expect, it } from 'vitest';
import { parseControlRequest } from '../../../../src/features/dashboard/dashboard-controls.js';
import { allowedHosts, checkRequest, cookieValue, isLoopback, type GuardConfig } from '../../../../src/features/dashboard/request-guard.js';

const TOKEN = 'abc123_-XYZ';
const hosts = allowedHosts('127.0.0.1', 4000);
const config: GuardConfig = { token: TOKEN, hosts, origins: hosts === 'any' ? [] : hosts.map((h) => `http://${h}`), cookieName: 'ralph_dashboard_4000' };
const everywhere: GuardConfig = { token: TOKEN, hosts: 'any', origins: [], cookieName: 'ralph_dashboard_4000' };
const HOST = { host: '127.0.0.1:4000' };

describe('checkRequest', () => {
  it.each([
    ['GET with the token in the address', 'GET', HOST, TOKEN, { ok: true }],
    ['GET with the token cookie', 'GET', { ...HOST, cookie: `other=1; ralph_dashboard_4000=${TOKEN}` }, undefined, { ok: true }],
    ['GET under the name localhost', 'GET', { host: 'localhost:4000' }, TOKEN, { ok: true }],
    ['GET without a token', 'GET', HOST, undefined, { ok: false, status: 401 }],
    ['GET with a wrong token', 'GET', HOST, 'abc123_-XYz', { ok: false, status: 401 }],
    ["GET with another dashboard's cookie", 'GET', { ...HOST, cookie: `ralph_dashboard_4001=${TOKEN}` }, undefined, { ok: false, status: 401 }],
    ['GET naming another host (DNS rebinding)', 'GET', { host: 'evil.example:4000' }, TOKEN, { ok: false, status: 421 }],
    ['GET without a Host', 'GET', {}, TOKEN, { ok: false, status: 421 }],
    ['GET from another origin', 'GET', { ...HOST, origin: 'http://evil.example' }, TOKEN, { ok: false, status: 403 }],
    ['POST with the token header from the page', 'POST', { ...HOST, origin: 'http://127.0.0.1:4000', 'x-ralph-token': TOKEN }, undefined, { ok: true }],
    ['POST with the token header, no Origin (curl)', 'POST', { ...HOST, 'x-ralph-token': TOKEN }, undefined, { ok: true }],
    [
      'POST from another origin, even with the token',
      'POST',
      { ...HOST, origin: 'http://evil.example', 'x-ralph-token': TOKEN },
      undefined,
      { ok: false, status: 403 },
    ],
    ['POST with the cookie only (a form of another site)', 'POST', { ...HOST, cookie: `ralph_dashboard_4000=${TOKEN}` }, undefined, { ok: false, status: 401 }],
    ['POST with the token in the address only', 'POST', HOST, TOKEN, { ok: false, status: 401 }],
  ] as const)('%s', (_name, method, headers, query, verdict) => {
    expect(checkRequest(config, method, headers, query)).toMatchObject(verdict);
  });
});

describe('checkRequest on every address (--host 0.0.0.0 --allow-remote)', () => {
  it.each([
    ['GET by a LAN address with the token', 'GET', { host: '192.168.1.5:4000' }, TOKEN, { ok: true }],
    ['GET without the token', 'GET', { host: '192.168.1.5:4000' }, undefined, { ok: false, status: 401 }],
    [
      'POST from the page at the address the request names',
      'POST',
      { host: '192.168.1.5:4000', origin: 'http://192.168.1.5:4000', 'x-ralph-token': TOKEN },
      undefined,
      { ok: true },
    ],
    [
      'POST from another origin',
      'POST',
      { host: '192.168.1.5:4000', origin: 'http://evil.example', 'x-ralph-token': TOKEN },
      undefined,
      { ok: false, status: 403 },
    ],
  ] as const)('%s', (_name, method, headers, query, verdict) => {
    expect(checkRequest(everywhere, method, headers, query)).toMatchObject(verdict);
  });
});

describe('hosts and cookies', () => {
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

  it('reads one cookie among several', () => {
    expect(cookieValue('a=1; b = 2 ;c=3', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeUndefined();
    expect(cookieValue(undefined, 'b')).toBeUndefined();
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
