import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotAProjectError, RalphError, UsageError } from '../../../../../src/errors.js';
import { browserOpener, runDashboard, type DashboardDeps, type DashboardOptions } from '../../../../../src/features/observe/dashboard/run-dashboard.js';
import { fakeRunner } from '../../../../helpers/fake-runner.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

function setup(over: Partial<DashboardOptions> = {}): { options: DashboardOptions; deps: DashboardDeps; stderr: string[] } {
  const dir = tempDir('ralph-dash-run-');
  mkdirSync(join(dir, '.ralph'));
  const stderr: string[] = [];
  const stop = new AbortController();
  stop.abort(130);
  return {
    options: { projectDir: dir, host: '127.0.0.1', port: 0, open: false, allowRemote: false, ...over },
    stderr,
    deps: {
      stdout: { write: () => undefined },
      stderr: { write: (t: string) => stderr.push(t) },
      signal: stop.signal,
      env: {},
      platform: 'linux',
      runner: fakeRunner([]),
      now: () => 0,
      staticDir: join(dir, 'no-such-dir'),
    },
  };
}

describe('ralph dashboard refuses before it listens', () => {
  it('a folder without .ralph/', async () => {
    const { options, deps } = setup();
    const bare = tempDir('ralph-dash-bare-');
    const error = await runDashboard({ ...options, projectDir: bare }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAProjectError);
    expect((error as RalphError).hint).toContain('ralph-enable');
  });

  it('a host that is not loopback without --allow-remote', async () => {
    const { options, deps } = setup({ host: '0.0.0.0' });
    const error = await runDashboard(options, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('--host 0.0.0.0 is not a loopback address');
    expect((error as UsageError).hint).toContain('--allow-remote');
  });

  it('with --allow-remote it warns (and then needs its page)', async () => {
    const { options, deps, stderr } = setup({ host: '0.0.0.0', allowRemote: true });
    const error = await runDashboard(options, deps).catch((e: unknown) => e);
    expect(stderr.join('')).toContain('Warning: listening on 0.0.0.0');
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).message).toContain("The dashboard's page is missing");
    expect((error as RalphError).hint).toContain('npm run build');
  });
});

describe('browserOpener', () => {
  it.each([
    ['linux', { DISPLAY: ':0' }, 'xdg-open'],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, 'xdg-open'],
    ['linux', {}, undefined],
    ['linux', { DISPLAY: '' }, undefined],
    ['darwin', {}, 'open'],
    ['win32', { DISPLAY: ':0' }, undefined],
  ] as const)('%s %j → %s', (platform, env, opener) => {
    expect(browserOpener(platform, env)).toBe(opener);
  });
});
