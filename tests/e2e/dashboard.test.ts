// `ralph dashboard` in a real browser (a Chromium found on this machine, through playwright-core):
// a finished loop, a running one, the buttons, and the token (npm test builds first). Without a
// browser the tests skip and say what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fakeOpener, launchBrowser, renderTime, screenshotDir, startDashboard } from '../helpers/dashboard-browser.js';
import { findBrowser } from '../helpers/find-browser.js';
import { skipNote } from '../helpers/skip-note.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { ROOT, cleanEnv, fakeClaude, ralph, readJson, runCli, statusBlock } from '../helpers/run-cli.js';
import { waitFor } from '../helpers/wait-for.js';

const working = `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const done = `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
const mock = (...args: string[]): string[] => ['--backend', 'mock', '--pause', '0', ...args];

const found = findBrowser();
const missing = skipNote('the dashboard tests in a browser', 'missing' in found ? found.missing : undefined);

let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;
let shots: string;
let removeShots: (() => void) | undefined;

beforeAll(async () => {
  if (!('path' in found)) return;
  ({ dir: shots, remove: removeShots } = screenshotDir());
  browser = await launchBrowser(found.path);
});
afterAll(async () => {
  await browser?.close();
  removeShots?.();
});

function newPage(): Promise<Page> {
  if (browser === undefined) throw new Error('chromium did not start');
  return browser.context.newPage();
}

describe.skipIf(missing !== undefined)(`ralph dashboard in a browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('a finished loop: its exit reason, cost, verify runs and charts', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [
      { output: working, files: { 'a.txt': '1' }, cost_usd: 0.25, input_tokens: 1200, output_tokens: 300 },
      { output: done, files: { 'b.txt': '2' }, cost_usd: 0.5, input_tokens: 2400, output_tokens: 500 },
      { output: done, cost_usd: 0.1 },
    ]);
    const run = await ralph(mock('--verify', 'test -f b.txt'), dir, cleanEnv());
    expect(run.exitCode, run.stderr).toBe(0);
    const dashboard = await startDashboard(dir);
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);

    const page = await newPage();
    await page.goto(dashboard.url);
    const loadMs = await renderTime(page);
    // The token leaves the address bar.
    expect(page.url()).toBe(`${dashboard.base}/`);
    await expect.poll(() => page.getByTestId('exit-reason').textContent()).toBe('project_complete (exit 0)');
    expect(await page.getByTestId('loop-status').textContent()).toBe('completed');
    expect(await page.getByTestId('cost').textContent()).toBe('$0.75');
    expect(await page.getByTestId('backend').textContent()).toBe('mock');
    expect(await page.getByTestId('tokens-in').textContent()).toBe('3,600');
    expect(await page.getByTestId('verify-status').textContent()).toBe('passed');
    // Two iterations, the first one's verify failed.
    const rows = page.getByTestId('recent-rows').locator('tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('✘ failed');
    expect(await rows.nth(0).textContent()).toContain('✔ passed');
    for (const chart of ['cost', 'tokens', 'duration', 'verify']) {
      expect(await page.getByTestId(`chart-${chart}`).locator('canvas').count(), chart).toBe(1);
    }
    // uPlot's legend shows the last point's cumulative cost once the cursor is over the chart.
    const costChart = page.getByTestId('chart-cost').locator('.u-over');
    const box = await costChart.boundingBox();
    if (box) await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await expect.poll(() => page.getByTestId('chart-cost').locator('.u-legend').textContent()).toContain('$0.75');
    await page.screenshot({ path: join(shots, 'dashboard-finished.png'), fullPage: true });

    const assets = readdirSync(join(ROOT, 'dist', 'bundle', 'dashboard')).filter((f) => !f.endsWith('.map'));
    const bytes = assets.reduce((sum, f) => sum + statSync(join(ROOT, 'dist', 'bundle', 'dashboard', f)).size, 0);
    writeFileSync(join(shots, 'dashboard-figures.json'), JSON.stringify({ loadMs: Math.round(loadMs), bundleBytes: bytes, assets }, null, 2));
    process.stderr.write(`dashboard: first data shown ${Math.round(loadMs)} ms after navigation; page assets ${bytes} bytes\n`);
    expect(await dashboard.stop()).toBe(130);
  });

  it('a running loop updates without a reload, and Stop ends it after its step', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      Array.from({ length: 12 }, (_, i) => ({ output: working, files: { [`s${i}.txt`]: String(i) }, delay_ms: 1200, cost_usd: 0.1, input_tokens: 500 })),
    );
    const loop = runCli('ralph', mock('--max-loops', '12'), dir, cleanEnv(), 90_000);
    const statusPath = join(dir, '.ralph', 'status.json');
    await waitFor(() => (readJson(statusPath)['loop_count'] as number) >= 1, 'the loop to start');
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    await page.evaluate(() => {
      (globalThis as unknown as { marker: string }).marker = 'same page';
    });
    const first = Number(await page.getByTestId('loop-count').textContent());
    await expect.poll(() => page.getByTestId('loop-count').textContent(), { timeout: 60_000 }).not.toBe(String(first));
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: string }).marker)).toBe('same page');
    expect(await page.getByTestId('loop-status').textContent()).toBe('running');
    await page.screenshot({ path: join(shots, 'dashboard-running.png'), fullPage: true });

    await page.getByTestId('stop').click();
    await expect.poll(() => page.getByTestId('feedback').textContent()).toMatch(/^Asked the loop \(PID \d+\) to stop after its current step\.$/);
    const ended = await loop;
    expect(ended.exitCode, String(ended.stderr)).toBe(0);
    expect(readJson(statusPath)).toMatchObject({ exit_reason: 'stop_requested' });
    await expect.poll(() => page.getByTestId('exit-reason').textContent(), { timeout: 60_000 }).toBe('stop_requested (exit 0)');
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: string }).marker)).toBe('same page');
    await dashboard.stop();
  });

  it('answers a paused verify gate and resets an open circuit', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working, files: { 'a.txt': '1' } }]);
    const run = await ralph(mock('--verify', 'echo "FAIL: the parser test"; exit 1', '--verify-max', '1'), dir, cleanEnv());
    expect(run.exitCode).toBe(6);
    // The gate left paused, and the breaker open, as a run that ended at those points leaves them.
    const gatePath = join(dir, '.ralph', '.verify_gate');
    writeFileSync(gatePath, JSON.stringify({ ...readJson(gatePath), status: 'escalated' }));
    const circuitPath = join(dir, '.ralph', '.circuit_breaker_state');
    writeFileSync(circuitPath, JSON.stringify({ ...readJson(circuitPath), state: 'OPEN', reason: 'No progress in 3 loops', total_opens: 1 }));

    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await expect.poll(() => page.getByTestId('verify-status').textContent()).toBe('paused: waiting for an answer');
    expect(await page.getByTestId('verify-tail').textContent()).toContain('FAIL: the parser test');
    expect(await page.getByTestId('circuit-state').textContent()).toBe('OPEN');
    await page.screenshot({ path: join(shots, 'dashboard-gate.png'), fullPage: true });

    await page.getByTestId('gate-retry').click();
    await expect.poll(() => page.getByTestId('feedback').textContent()).toContain("Answered 'retry' for the verify gate of");
    expect(readJson(gatePath)).toMatchObject({ status: 'pending', attempt: 0, results: [] });
    await expect.poll(() => page.getByTestId('verify-status').textContent()).toBe('pending');
    expect(await page.getByTestId('gate-skip').isDisabled()).toBe(true);

    await page.getByTestId('reset-circuit').click();
    await expect.poll(() => page.getByTestId('feedback').textContent()).toBe('Circuit breaker reset to CLOSED state.');
    expect(readJson(circuitPath)).toMatchObject({ state: 'CLOSED' });
    await expect.poll(() => page.getByTestId('circuit-state').textContent()).toBe('CLOSED');
    expect(await page.getByTestId('circuit-history').textContent()).toContain('OPEN → CLOSED');
    await dashboard.stop();
  });

  it('refuses a request without the token, and a POST from another origin', async () => {
    const dir = ralphProject();
    const dashboard = await startDashboard(dir);
    const token = dashboard.token;
    for (const path of ['/api/state', '/api/events']) {
      const res = await fetch(`${dashboard.base}${path}`);
      expect(res.status, path).toBe(401);
      expect(await res.text()).toContain('Refused: missing or wrong token');
      // The token in the address or in the cookie older versions set opens nothing.
      expect((await fetch(`${dashboard.base}${path}?token=${token}`)).status, path).toBe(401);
      expect((await fetch(`${dashboard.base}${path}`, { headers: { cookie: `ralph_dashboard_${new URL(dashboard.base).port}=${token}` } })).status).toBe(401);
    }
    expect((await fetch(`${dashboard.base}/api/state`, { headers: { 'x-ralph-token': `${token}x` } })).status).toBe(401);
    expect((await fetch(`${dashboard.base}/api/state`, { headers: { 'x-ralph-token': token } })).status).toBe(200);
    // The page and its files hold no data and no token.
    for (const path of ['/', '/app.js', '/style.css']) {
      const res = await fetch(`${dashboard.base}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).not.toContain(token);
    }
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${dashboard.base}/api/loops/main/stop`, { method: 'POST', headers, body: '{}' });
    const foreign = await post({ origin: 'http://evil.example', 'x-ralph-token': token });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('requests from http://evil.example are refused');
    expect((await post({ origin: dashboard.base })).status).toBe(401);
    // The dashboard's own origin with the token gets the CLI's answer: no loop runs here.
    const own = await post({ origin: dashboard.base, 'x-ralph-token': token });
    expect(own.status).toBe(409);
    expect(await own.json()).toMatchObject({ ok: false, message: 'No Ralph loop is running in this project.' });
    expect(readFileSync(join(dir, '.ralph', 'PROMPT.md'), 'utf8')).toContain('Task');

    // A tab opened without the printed address, holding only the cookie older versions set, shows nothing of the loop.
    if (browser === undefined) throw new Error('chromium did not start');
    await browser.context.addCookies([{ name: `ralph_dashboard_${new URL(dashboard.base).port}`, value: token, url: dashboard.base }]);
    const page = await newPage();
    const response = await page.goto(`${dashboard.base}/`);
    expect(response?.status()).toBe(200);
    await expect
      .poll(() => page.locator('#notice').textContent())
      .toBe('This page has no key to the dashboard. Open the address ralph dashboard printed in its terminal.');
    expect(await page.getByTestId('loop-status').count()).toBe(0);
    await browser.context.clearCookies();
    expect(await dashboard.stop()).toBe(130);
  });

  it('no cookie: the page works from its address alone, and another server on 127.0.0.1 the browser visits gets no token', async () => {
    const dir = ralphProject();
    const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];
    // Another local server (another user's dev server, say) on another port of the same address.
    const other = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>another server</p><img src="/pixel.png">');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          other.close(() => resolve());
          other.closeAllConnections();
        }),
    );
    const otherPort = (other.address() as AddressInfo).port;

    const circuitPath = join(dir, '.ralph', '.circuit_breaker_state');
    writeFileSync(circuitPath, JSON.stringify({ state: 'OPEN', reason: 'No progress in 3 loops', total_opens: 1 }));
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(page.url()).toBe(`${dashboard.base}/`);
    expect(await page.getByTestId('circuit-state').textContent()).toBe('OPEN');
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    // A button: its POST carries the token in its header, and the server's stream shows the change.
    await page.getByTestId('reset-circuit').click();
    await expect.poll(() => page.getByTestId('feedback').textContent()).toBe('Circuit breaker reset to CLOSED state.');
    expect(readJson(circuitPath)).toMatchObject({ state: 'CLOSED' });
    await expect.poll(() => page.getByTestId('circuit-state').textContent()).toBe('CLOSED');
    // A reload keeps the page's key (sessionStorage of this tab and origin), never a cookie.
    await page.reload();
    await page.waitForSelector('body[data-loaded="true"]');
    const visit = await newPage();
    await visit.goto(`http://127.0.0.1:${otherPort}/`);
    await expect.poll(() => seen.some((r) => r.url === '/pixel.png')).toBe(true);
    await page.goto(`http://127.0.0.1:${otherPort}/again`);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const request of seen) {
      expect(request.headers['cookie'], request.url).toBeUndefined();
      expect(JSON.stringify(request), request.url).not.toContain(dashboard.token);
    }
    if (browser === undefined) throw new Error('chromium did not start');
    expect(await browser.context.cookies()).toEqual([]);
    await dashboard.stop();
  });

  it('the address the opener got: its one-time code opens the page once, then is refused', async () => {
    const dir = ralphProject();
    const opener = fakeOpener();
    const dashboard = await startDashboard(dir, { ...opener.env, DISPLAY: ':99' }, []);
    await waitFor(() => existsSync(opener.log), 'xdg-open to be called');
    const opened = readFileSync(opener.log, 'utf8')
      .split('\0')
      .filter((arg) => arg !== '');
    const address = opened[opened.length - 1] ?? '';
    expect(address).toMatch(new RegExp(`^${dashboard.base}/#code=`));
    expect(readFileSync(opener.log, 'utf8')).not.toContain(dashboard.token);

    const page = await newPage();
    await page.goto(address);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(page.url()).toBe(`${dashboard.base}/`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    // The same address in another tab (someone who read it from /proc): refused, and shown why.
    const late = await newPage();
    await late.goto(address);
    await expect
      .poll(() => late.locator('#notice').textContent())
      .toBe('This address was for one opening only, and it was used already or has expired. Open the address ralph dashboard printed in its terminal.');
    expect(await late.getByTestId('loop-status').count()).toBe(0);
    // The first tab goes on working after a reload.
    await page.reload();
    await page.waitForSelector('body[data-loaded="true"]');
    expect(await page.getByTestId('loop-status').textContent()).toBe('not started');
    await dashboard.stop();
  });

  it('a named pipe at status.json and progress.json: the page still shows, and names both files', async () => {
    const dir = ralphProject();
    for (const name of ['status.json', 'progress.json']) expect(spawnSync('mkfifo', [join(dir, '.ralph', name)]).status).toBe(0);
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    const problems = page.getByTestId('card-problems').locator('li');
    expect(await problems.allTextContents()).toEqual([
      'status.json: it is a named pipe (FIFO), not a regular file; remove it',
      'progress.json: it is a named pipe (FIFO), not a regular file; remove it',
    ]);
    // The stream goes on: a real status file in the pipe's place shows without a reload.
    rmSync(join(dir, '.ralph', 'status.json'));
    writeFileSync(join(dir, '.ralph', 'status.json'), JSON.stringify({ loop_count: 4, status: 'running' }));
    await expect.poll(() => page.getByTestId('loop-count').textContent(), { timeout: 10_000 }).toBe('4');
    expect(await problems.allTextContents()).toEqual(['progress.json: it is a named pipe (FIFO), not a regular file; remove it']);
    await dashboard.stop();
  });

  it('a queue: each loop in a tab of its own; a damaged queue file gives a notice and the project loop', async () => {
    const dir = ralphProject();
    for (const [id, reason, code, cost] of [
      ['fix-auth', 'project_complete', 0, 1.5],
      ['add-api', 'max_loops', 7, 2.25],
    ] as const) {
      const ralphDir = join(dir, '.ralph', 'worktrees', id, '.ralph');
      mkdirSync(join(ralphDir, 'logs'), { recursive: true });
      writeFileSync(
        join(ralphDir, 'status.json'),
        JSON.stringify({
          status: code === 0 ? 'completed' : 'stopped',
          exit_reason: reason,
          exit_code: code,
          loop_count: 3,
          backend: 'mock',
          totals: { cost_usd: cost },
        }),
      );
    }
    writeFileSync(
      join(dir, '.ralph', 'worktrees', 'fix-auth', '.ralph', 'logs', 'metrics.jsonl'),
      [1, 2, 3].map((loop) => JSON.stringify({ type: 'iteration', loop, success: true, cost_usd: 0.5, duration_ms: 1000 * loop })).join('\n'),
    );
    const queuePath = join(dir, '.ralph', 'queue.json');
    writeFileSync(
      queuePath,
      JSON.stringify({
        version: 1,
        items: [
          ...[
            { id: 'fix-auth', title: 'Fix the login', state: 'completed', branch: 'ralph/fix-auth', worktree: '.ralph/worktrees/fix-auth' },
            { id: 'add-api', title: 'Add the API', state: 'failed', branch: 'ralph/add-api', worktree: '.ralph/worktrees/add-api' },
          ].map((item) => ({ source: 'task', spec: item.title, priority: 5, depends_on: [], created_at: '2026-03-01T11:00:00Z', ...item })),
        ],
      }),
    );
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(await page.getByTestId('tab-fix-auth').textContent()).toBe('Fix the login completed');
    await page.getByTestId('tab-add-api').click();
    await expect.poll(() => page.getByTestId('exit-reason').textContent()).toBe('max_loops (exit 7)');
    expect(await page.getByTestId('cost').textContent()).toBe('$2.25');
    await page.screenshot({ path: join(shots, 'dashboard-queue.png'), fullPage: true });
    expect(await page.getByTestId('no-iterations').isVisible()).toBe(true);
    await page.getByTestId('tab-fix-auth').click();
    await expect.poll(() => page.getByTestId('exit-reason').textContent()).toBe('project_complete (exit 0)');
    // Switching loops replaces the charts, never adds to them.
    expect(await page.locator('.chart').count()).toBe(4);
    expect(await page.getByTestId('no-iterations').isVisible()).toBe(false);

    writeFileSync(queuePath, '{"version": 1, "items": [');
    await expect
      .poll(() => page.locator('#notice').textContent(), { timeout: 60_000 })
      .toMatch(/queue\.json cannot be read: not valid JSON .*; showing this project's loop only/);
    expect(await page.locator('#tabs').isHidden()).toBe(true);
    expect(await page.getByTestId('loop-status').textContent()).toBe('not started');

    // A second dashboard on the same port is told so.
    const port = new URL(dashboard.url).port;
    const second = await runCli('ralph', ['dashboard', '--no-open', '--port', port], dir, cleanEnv());
    expect(second.exitCode).toBe(1);
    expect(String(second.stderr)).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
    await dashboard.stop();
  });

  it('the header names the project; an update keeps the focused button and a half-done click', async () => {
    const dir = ralphProject();
    const statusPath = join(dir, '.ralph', 'status.json');
    const circuitPath = join(dir, '.ralph', '.circuit_breaker_state');
    writeFileSync(statusPath, JSON.stringify({ status: 'stopped', exit_reason: 'max_loops', exit_code: 7, loop_count: 2, backend: 'mock' }));
    writeFileSync(circuitPath, JSON.stringify({ state: 'OPEN', reason: 'No progress in 3 loops', total_opens: 1 }));
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(await page.getByTestId('project-name').textContent()).toBe(basename(dir));
    expect(await page.getByTestId('project-path').textContent()).toBe(realpathSync(dir));
    expect(await page.title()).toContain(basename(dir));

    const reset = page.getByTestId('reset-circuit');
    await reset.focus();
    await reset.evaluate((b) => {
      (b as unknown as { marker: string }).marker = 'the same button';
    });
    // An update of another card: the circuit card and its button are not rebuilt.
    writeFileSync(statusPath, JSON.stringify({ status: 'stopped', exit_reason: 'max_loops', exit_code: 7, loop_count: 3, backend: 'mock' }));
    await expect.poll(() => page.getByTestId('loop-count').textContent(), { timeout: 10_000 }).toBe('3');
    const focused = (): Promise<string | undefined> =>
      page.evaluate(() => (globalThis as unknown as { document: { activeElement: { marker?: string } | null } }).document.activeElement?.marker);
    expect(await focused()).toBe('the same button');

    // Pressed before an update, released after it: still a click.
    const box = await reset.boundingBox();
    if (box === null) throw new Error('the Reset circuit button is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    writeFileSync(statusPath, JSON.stringify({ status: 'stopped', exit_reason: 'max_loops', exit_code: 7, loop_count: 4, backend: 'mock' }));
    await expect.poll(() => page.getByTestId('loop-count').textContent(), { timeout: 10_000 }).toBe('4');
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('feedback').textContent()).toBe('Circuit breaker reset to CLOSED state.');
    expect(readJson(circuitPath)).toMatchObject({ state: 'CLOSED' });
    await dashboard.stop();
  });

  it('a running loop whose gate waits for an answer says so, and after a failed iteration it is running, not a red error', async () => {
    const dir = ralphProject();
    const statusPath = join(dir, '.ralph', 'status.json');
    // A loop that runs (its pid is this test's own process), whose gate waits for an answer.
    const running = { status: 'running', exit_reason: '', exit_code: null, loop_count: 3, backend: 'mock', pid: process.pid };
    writeFileSync(statusPath, JSON.stringify({ ...running, last_action: 'executing', message: 'Loop #3: Mock is working' }));
    writeFileSync(
      join(dir, '.ralph', '.verify_gate'),
      JSON.stringify({ gateId: 'g1', command: 'npm test', status: 'escalated', attempt: 3, maxAttempts: 3, results: [] }),
    );
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(await page.getByTestId('loop-status').textContent()).toBe('waiting for an answer');
    expect(await page.getByTestId('waiting-for').textContent()).toBe('Waiting for an answer to the verify gate (npm test): retry, skip or abort.');
    expect(await page.getByTestId('card-state').textContent()).not.toContain('is working');
    await page.screenshot({ path: join(shots, 'dashboard-gate-waiting.png'), fullPage: true });

    // What the loop writes once the answer was retry: the iteration's verdict, then the next iteration.
    writeFileSync(
      join(dir, '.ralph', '.verify_gate'),
      JSON.stringify({ gateId: 'g1', command: 'npm test', status: 'pending', attempt: 0, maxAttempts: 3, results: [] }),
    );
    writeFileSync(statusPath, JSON.stringify({ ...running, status: 'error', last_action: 'failed', message: 'Loop #3: verify failed' }));
    await expect.poll(() => page.getByTestId('verify-status').textContent(), { timeout: 10_000 }).toBe('pending');
    expect(await page.getByTestId('loop-status').textContent()).toBe('running');
    expect(await page.getByTestId('loop-status').getAttribute('class')).toBe('badge live');
    expect(await page.getByTestId('waiting-for').count()).toBe(0);
    await dashboard.stop();
  });

  it('a finished queue run stays visible with its outcome after its worktrees were removed', async () => {
    const dir = ralphProject();
    writeFileSync(
      join(dir, '.ralph', 'queue.json'),
      JSON.stringify({
        version: 1,
        items: [
          {
            id: 'fix-auth',
            source: 'task',
            title: 'Fix the login',
            spec: 'Fix the login',
            priority: 5,
            depends_on: [],
            state: 'completed',
            created_at: '2026-03-01T11:00:00Z',
            finished_at: '2026-03-01T11:40:00Z',
            branch: 'ralph/fix-auth',
            worktree: '.ralph/worktrees/fix-auth',
            result: { exit_reason: 'project_complete', exit_code: 0, cost: 1.5, iterations: 4, branch: 'ralph/fix-auth' },
          },
        ],
      }),
    );
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    await page.getByTestId('tab-fix-auth').click();
    await expect.poll(() => page.getByTestId('queue-outcome').textContent()).toBe('completed — project_complete (exit 0)');
    expect(await page.getByTestId('loop-status').textContent()).toBe('completed');
    expect(await page.getByTestId('cost').textContent()).toBe('$1.50');
    expect(await page.getByTestId('loop-count').textContent()).toBe('4');
    expect(await page.getByTestId('record-only').textContent()).toBe('Its worktree was removed: this is what the queue recorded.');
    expect(await page.getByTestId('updated').textContent()).toMatch(/from the queue's record$/);
    await page.screenshot({ path: join(shots, 'dashboard-queue-finished.png'), fullPage: true });
    await dashboard.stop();
  });

  it("a running call: the agent's current tool, and its clock moving in the page", async () => {
    const dir = ralphProject();
    const stream = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-cli', 'stream-json-success.jsonl'), 'utf8');
    // The init event, the text and the Write tool call; the agent then works until the test has
    // seen the clock move, and only then writes the rest.
    const first = `${stream.split('\n').slice(0, 3).join('\n')}\n`;
    const release = join(dir, '.ralph', 'release-the-agent');
    const fake = fakeClaude([{ stdout_first: first, shell: `while [ ! -e '${release}' ]; do sleep 0.05; done`, stdout: stream.slice(first.length) }]);
    const loop = runCli('ralph', ['--live', '--pause', '0', '--max-loops', '1'], dir, fake.env, 60_000);
    const progressPath = join(dir, '.ralph', 'progress.json');
    await waitFor(() => String(readJson(progressPath)['current_tool']).startsWith('Write'), 'the call to report its tool');
    const tool = String(readJson(progressPath)['current_tool']);
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await expect.poll(() => page.getByTestId('current-tool').textContent()).toBe(tool);
    const seconds = async (): Promise<number> => Number((await page.getByTestId('call-elapsed').textContent())?.replace(/s$/, ''));
    const before = await seconds();
    await expect.poll(seconds, { timeout: 60_000 }).toBeGreaterThan(before);
    await page.screenshot({ path: join(shots, 'dashboard-call.png'), fullPage: true });
    writeFileSync(release, '');
    expect((await loop).exitCode).toBe(7);
    await expect.poll(() => page.getByTestId('card-call').textContent(), { timeout: 60_000 }).toContain('The loop has finished.');
    await dashboard.stop();
  });

  it('--review: the Review card shows the verdict, the count and the findings; the subscription windows a call reported show in the Loop card', async () => {
    const dir = ralphProject();
    const review = (finding: string): Record<string, unknown> => ({
      hat: 'reviewer',
      output: `I read the diff.\n---RALPH_REVIEW---\nVERDICT: CHANGES_REQUESTED\nFINDINGS:\n- ${finding}\n---END_RALPH_REVIEW---`,
      cost_usd: 0.25,
    });
    writeMockScript(dir, [{ output: done, files: { 'a.txt': '1' } }, review('a.txt holds 1, not 2'), { output: done }, review('a.txt still holds 1')]);
    const run = await ralph(mock('--review', '--review-max', '2', '--verify', 'test -f a.txt', '--max-loops', '5'), dir, cleanEnv());
    expect(run.exitCode, run.stderr).toBe(6);
    const dashboard = await startDashboard(dir);
    const page = await newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-loaded="true"]');
    await expect.poll(() => page.getByTestId('exit-reason').textContent()).toBe('review_rejected (exit 6)');
    const card = page.getByTestId('card-review');
    expect(await page.getByTestId('review-verdict').textContent()).toBe('CHANGES_REQUESTED');
    expect(await page.getByTestId('review-count').textContent()).toBe('2 (2 / 2 rejected in a row)');
    expect(await page.getByTestId('review-findings').locator('li').allTextContents()).toEqual(['a.txt still holds 1']);
    expect(await card.textContent()).toContain('Reviewermock');
    expect(await card.textContent()).toContain('$0.50');
    // A run without windows shows no Window row; the windows an agent reports show without a reload.
    expect(await page.getByTestId('quota-window').count()).toBe(0);
    const statusPath = join(dir, '.ralph', 'status.json');
    const hour = 3_600_000;
    const status = readJson(statusPath);
    const windows = [
      { window: 'five_hour', status: 'allowed', used_percent: 20, resets_at: new Date(Date.now() + 2 * hour).toISOString() },
      { window: 'seven_day', status: 'warning', used_percent: 81, resets_at: new Date(Date.now() + 51 * hour).toISOString() },
      { window: 'seven_day_opus', status: 'rejected', used_percent: null, resets_at: null },
    ];
    writeFileSync(statusPath, JSON.stringify({ ...status, quota_windows: windows }));
    const rows = page.getByTestId('quota-window');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    const lines = await rows.allTextContents();
    expect(lines[0]).toMatch(/^5-hour window \(five_hour\): allowed, 20% used — resets in \d+h \d+m \d+s \(/);
    expect(lines[1]).toMatch(/^weekly window \(seven_day\): nearly used up, 81% used — resets in (50|51)h /);
    expect(lines[2]).toBe('weekly Opus window (seven_day_opus): used up');
    // The Review card is still there beside them.
    expect(await page.getByTestId('review-verdict').textContent()).toBe('CHANGES_REQUESTED');
    await page.screenshot({ path: join(shots, 'dashboard-review.png'), fullPage: true });
    expect(await dashboard.stop()).toBe(130);
  });
});
