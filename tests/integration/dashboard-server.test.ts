// The dashboard's HTTP server on 127.0.0.1, in-process with a fixed state: every answer
// the page can get, the refusals, and each bad request's message.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlRequest } from '../../src/features/observe/dashboard/dashboard-controls.js';
import { startDashboardServer, type DashboardServer } from '../../src/features/observe/dashboard/dashboard-server.js';
import type { DashboardState } from '../../src/features/observe/dashboard/dashboard-view.js';
import { OpeningCodes } from '../../src/features/observe/dashboard/opening-codes.js';

const TOKEN = 'test-token-0123456789abcdefghijkl';
const STATE: DashboardState = { takenAt: '2026-03-01T12:00:00.000Z', project: { name: 'p', path: '/p' }, notice: null, loops: [] };
const ASSETS = new Map([
  ['/index.html', { type: 'text/html; charset=utf-8', body: Buffer.from('<title>Ralph dashboard</title>') }],
  ['/app.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from('console.log(1)') }],
]);

let server: DashboardServer | undefined;
const controls: Array<[string, ControlRequest]> = [];
let codeCount = 0;

afterEach(async () => {
  await server?.close();
  server = undefined;
  controls.length = 0;
});

async function start(): Promise<DashboardServer> {
  server = await startDashboardServer({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    openingCodes: new OpeningCodes(Date.now, () => `code-${(codeCount += 1)}`),
    assets: ASSETS,
    read: () => STATE,
    control: async (loopId, req) => {
      controls.push([loopId, req]);
      return { status: 200, ok: true, message: `did ${req.action}` };
    },
    intervalMs: 1000,
    onError: (error) => {
      throw error;
    },
  });
  return server;
}

/** A raw request, so the Host header can be anything. */
function send(
  s: DashboardServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (s: DashboardServer, path: string, body: string) =>
  send(s, 'POST', path, { origin: s.origin, 'x-ralph-token': TOKEN, 'content-type': 'application/json' }, body);

describe('the dashboard server', () => {
  it('serves the page and its files to anyone (they hold no data, and no token), the data only with the token header', async () => {
    const s = await start();
    expect(s.url).toBe(`${s.origin}/#token=${TOKEN}`);
    const page = await send(s, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toBe('<title>Ralph dashboard</title>');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await send(s, 'GET', '/app.js')).text).toBe('console.log(1)');
    expect((await send(s, 'GET', '/api/state')).status).toBe(401);
    expect(JSON.parse((await send(s, 'GET', '/api/state', { 'x-ralph-token': TOKEN })).text)).toEqual(STATE);
    // index.html only as the page.
    expect((await send(s, 'GET', '/index.html')).status).toBe(404);
    expect((await send(s, 'GET', '/../package.json')).status).toBe(404);
  });

  it('no longer takes the token from a cookie or the address', async () => {
    const s = await start();
    for (const path of ['/api/state', '/api/events']) {
      expect((await send(s, 'GET', path, { cookie: `ralph_dashboard_${s.port}=${TOKEN}` })).status, path).toBe(401);
      expect((await send(s, 'GET', `${path}?token=${TOKEN}`)).status, path).toBe(401);
    }
    const stop = await send(s, 'POST', '/api/loops/main/stop', { origin: s.origin, cookie: `ralph_dashboard_${s.port}=${TOKEN}` }, '{}');
    expect(stop.status).toBe(401);
    expect(controls).toEqual([]);
  });

  it("the opener's address carries a one-time code, which the page trades for the token once", async () => {
    const s = await start();
    const opening = s.openingUrl();
    expect(opening).toMatch(new RegExp(`^${s.origin}/#code=code-\\d+$`));
    expect(opening).not.toContain(TOKEN);
    const code = opening.slice(opening.indexOf('#code=') + 6);
    const trade = (body: string) => send(s, 'POST', '/api/session', { origin: s.origin, 'content-type': 'application/json' }, body);
    const first = await trade(JSON.stringify({ code }));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ ok: true, token: TOKEN });
    const again = await trade(JSON.stringify({ code }));
    expect(again.status).toBe(401);
    expect(JSON.parse(again.text)).toMatchObject({ ok: false, message: 'This address was for one opening only, and it was used already or has expired.' });
    expect(JSON.parse(again.text).token).toBeUndefined();
    expect((await trade('{"code": 1}')).status).toBe(401);
    expect((await trade('{')).status).toBe(400);
    // Another site's page cannot trade one either.
    const other = s.openingUrl();
    const foreign = await send(
      s,
      'POST',
      '/api/session',
      { origin: 'http://attacker.example' },
      JSON.stringify({ code: other.slice(other.indexOf('#code=') + 6) }),
    );
    expect(foreign.status).toBe(403);
  });

  it('hands each button to the controls', async () => {
    const s = await start();
    expect(JSON.parse((await post(s, '/api/loops/main/stop', '')).text)).toEqual({ status: 200, ok: true, message: 'did stop' });
    await post(s, '/api/loops/fix-auth/gate', '{"answer":"skip"}');
    await post(s, '/api/loops/main/reset-circuit', '{}');
    expect(controls).toEqual([
      ['main', { action: 'stop' }],
      ['fix-auth', { action: 'gate', answer: 'skip' }],
      ['main', { action: 'reset-circuit' }],
    ]);
  });

  it.each([
    ['an unknown control', '/api/loops/main/restore', '{}', 400, "unknown control 'restore' (or a gate answer other than retry, skip, abort)"],
    ['an unknown gate answer', '/api/loops/main/gate', '{"answer":"later"}', 400, "unknown control 'gate' (or a gate answer other than retry, skip, abort)"],
    ['a body that is not JSON', '/api/loops/main/gate', '{"answer":', 400, 'request body is not JSON'],
    ['a body of 5,000 bytes', '/api/loops/main/stop', 'x'.repeat(5000), 413, 'request body too large (more than 4096 bytes)'],
    ['another path', '/api/stop', '{}', 404, 'no such control: /api/stop'],
    ['a loop id that is no text', '/api/loops/%E0%A4%A/stop', '{}', 404, 'no such loop: %E0%A4%A'],
  ])('POST with %s (%s) → %i: %s', async (_name, path, body, status, message) => {
    const s = await start();
    const answer = await post(s, path, body);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.text)).toMatchObject({ ok: false, message });
    expect(controls).toEqual([]);
  });

  it('answers 405 to other methods, and closes with a page still listening', async () => {
    const s = await start();
    const put = await send(s, 'PUT', '/api/state', { origin: s.origin, 'x-ralph-token': TOKEN });
    expect(put.status).toBe(405);
    expect(put.headers['allow']).toBe('GET, HEAD, POST');
    const events = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port: s.port, path: '/api/events', headers: { 'x-ralph-token': TOKEN } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          if (text.includes('data: ')) resolve(text);
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    expect(events).toBe(`retry: 1000\n\ndata: ${JSON.stringify(STATE)}\n\n`);
    await s.close();
    server = undefined;
  });
});
