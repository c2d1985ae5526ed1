// `ralph dashboard` as a process: its address line, the browser it opens, how it ends, and its
// errors (npm test builds first). The page itself is tested in chromium (tests/e2e/dashboard.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeOpener, startDashboard } from '../helpers/dashboard-browser.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

describe('ralph dashboard', () => {
  it('prints the address first, opens the browser with a one-time address that never shows the token, and ends on Ctrl+C with 130', async () => {
    const dir = ralphProject();
    const opener = fakeOpener();
    const dashboard = await startDashboard(dir, { ...opener.env, DISPLAY: ':99' }, []);
    // The printed address keeps the token in its fragment, which a browser never sends anywhere.
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
    await waitFor(() => read(opener.log) !== '', 'xdg-open to be called');
    const argv = read(opener.log)
      .split('\0')
      .filter((arg) => arg !== '');
    expect(argv.slice(1)).toEqual([join(opener.bin, 'xdg-open'), expect.stringMatching(new RegExp(`^${dashboard.base}/#code=[\\w-]{32}$`))]);
    expect(read(opener.log)).not.toContain(dashboard.token);
    const code = (argv[argv.length - 1] ?? '').split('#code=')[1] ?? '';
    const trade = (): Promise<Response> =>
      fetch(`${dashboard.base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const first = await trade();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, token: dashboard.token });
    // Whoever read the code from /proc afterwards holds nothing.
    const second = await trade();
    expect(second.status).toBe(401);
    expect(await second.json()).toMatchObject({ ok: false, hint: 'Open the address ralph dashboard printed in its terminal.' });
    expect(await dashboard.stop()).toBe(130);
    const result = await dashboard.process;
    expect(String(result.stdout).trim().split('\n')).toEqual([dashboard.url]);
    expect(String(result.stderr)).toContain(`Dashboard of ${dir}; Ctrl+C stops it.`);
  });

  it('without a display it says so and opens nothing; SIGTERM ends it with 143', async () => {
    const dir = ralphProject();
    const opener = fakeOpener();
    const dashboard = await startDashboard(dir, opener.env, []);
    // Written with the address, in the same turn (writes to a pipe are synchronous on Linux).
    dashboard.process.kill('SIGTERM');
    const result = await dashboard.process;
    expect(result.exitCode).toBe(143);
    expect(String(result.stderr)).toContain('No display to open a browser on: open the address above yourself.');
    expect(read(opener.log)).toBe('');
  });

  it.each([
    [['dashboard', '--port', 'abc'], 2, 'invalid value for --port: "abc"; expected a port number from 0 to 65535'],
    [['dashboard', '--port', '70000'], 2, 'invalid value for --port: "70000"'],
    [['dashboard', '--host', '0.0.0.0', '--no-open'], 2, '--host 0.0.0.0 is not a loopback address'],
  ])('ralph %j exits %i: %s', async (args, code, message) => {
    const r = await ralph(args, ralphProject(), cleanEnv());
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('outside a Ralph project: exit 1 and what to do', async () => {
    const r = await ralph(['dashboard', '--no-open'], tempDir('not-a-project-'), cleanEnv());
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('is not a Ralph project (no .ralph/ directory).');
    expect(r.stderr).toContain('Run ralph-enable here first');
  });
});
