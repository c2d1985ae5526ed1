// `ralph dashboard` as a process: its address line, the browser it opens, how it ends, and its
// errors (npm test builds first). The page itself is tested in chromium (tests/e2e/dashboard.test.ts).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDashboard } from '../helpers/dashboard-browser.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

/** An xdg-open on PATH that records the address it was given. */
function fakeOpener(): { env: Record<string, string>; log: string } {
  const bin = tempDir('fake-xdg-open-');
  const log = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> "${log}"\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  const env = cleanEnv();
  return { env: { ...env, PATH: `${bin}:${env['PATH']}` }, log };
}

const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

describe('ralph dashboard', () => {
  it('prints the address first, opens it with xdg-open when there is a display, and ends on Ctrl+C with 130', async () => {
    const dir = ralphProject();
    const opener = fakeOpener();
    const dashboard = await startDashboard(dir, { ...opener.env, DISPLAY: ':99' }, []);
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    await waitFor(() => read(opener.log) !== '', 'xdg-open to be called');
    expect(read(opener.log).trim()).toBe(dashboard.url);
    expect((await fetch(dashboard.url)).status).toBe(200);
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
