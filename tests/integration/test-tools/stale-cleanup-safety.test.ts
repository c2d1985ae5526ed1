// Start-up cleanup of test workspaces against planted markers, registry
// entries and symlinks: real folders, real symlinks, the cleanup run
// in-process with a clock two days ahead. The "other user" is simulated by a
// private temp root holding both the tools' home and the victim's folder.
import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultDeps } from '../../../src/cli/deps.js';
import { cleanStaleWorkspaces } from '../../../src/features/agent-tools/test/stale-cleanup.js';
import { toolPaths, type ToolContext } from '../../../src/features/agent-tools/test/tool-home.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { ralphTest } from '../../helpers/test-tools.js';

const TWO_DAYS = 2 * 24 * 60 * 60 * 1000;

function context(home: string, warnings: string[] = []): ToolContext {
  return {
    env: { RALPH_TEST_TOOLS_HOME: home },
    cwd: home,
    now: () => Date.now() + TWO_DAYS,
    runner: createDefaultDeps().runner,
    warn: (m) => warnings.push(m),
  };
}

function victim(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'precious.txt'), 'the victim’s work\n');
  return dir;
}

function plantWorkspace(home: string, folder: string, marker: Record<string, unknown>): string {
  const dir = join(home, folder);
  mkdirSync(join(dir, '.git'), { recursive: true });
  const file = join(dir, '.git', 'ralph-test-workspace.json');
  writeFileSync(file, JSON.stringify(marker));
  const old = new Date(Date.now() - TWO_DAYS);
  utimesSync(file, old, old);
  return dir;
}

function privateRoot(): { root: string; home: string } {
  const root = tempDir('ralph-two-users-');
  const home = join(root, 'home');
  mkdirSync(home, { mode: 0o700 });
  return { root, home };
}

describe('stale workspace cleanup never deletes outside its home', () => {
  it('a planted marker with "id": "../../victim" deletes nothing of the victim', async () => {
    const { root, home } = privateRoot();
    const target = victim(root, 'victim');
    const planted = plantWorkspace(home, 'ralph-test-evil', { id: '../../victim', created_at: 0 });
    await cleanStaleWorkspaces(context(home));
    expect(existsSync(join(target, 'precious.txt'))).toBe(true);
    // A marker whose id is not its folder's name is not ours: the folder stays too.
    expect(existsSync(planted)).toBe(true);
  });

  it('a marker naming another valid id leaves both folders alone', async () => {
    const { home } = privateRoot();
    const other = victim(home, 'ralph-test-other');
    const planted = plantWorkspace(home, 'ralph-test-evil', { id: 'other', created_at: 0 });
    await cleanStaleWorkspaces(context(home));
    expect(existsSync(join(other, 'precious.txt'))).toBe(true);
    expect(existsSync(planted)).toBe(true);
  });

  it('a registry entry pointing outside the home is dropped with a warning, its path kept', async () => {
    const { root, home } = privateRoot();
    const target = victim(root, 'victim2');
    const entry = { path: target, created_at: 0, used_at: 0, config: {}, last_run: null, snapshot_count: 0 };
    writeFileSync(
      join(home, 'registry.json'),
      JSON.stringify({
        version: 1,
        workspaces: { x: entry, '../../victim2': entry },
        preserved: { y: { path: target, session_file: join(target, 's'), preserved_at: 0 } },
      }),
    );
    const warnings: string[] = [];
    await cleanStaleWorkspaces(context(home, warnings));
    expect(existsSync(join(target, 'precious.txt'))).toBe(true);
    expect(warnings.join('\n')).toContain('is not a test workspace folder');
  });

  it('never deletes through a symlinked data folder or workspace', async () => {
    const { root, home } = privateRoot();
    const data = victim(root, 'data-victim');
    mkdirSync(join(data, 'w'));
    writeFileSync(join(data, 'w', 'precious.txt'), 'x');
    symlinkSync(data, join(home, 'data'));
    const own = plantWorkspace(home, 'ralph-test-w', { id: 'w', created_at: 0 });
    const linked = victim(root, 'linked-victim');
    mkdirSync(join(linked, '.git'));
    writeFileSync(join(linked, '.git', 'ralph-test-workspace.json'), JSON.stringify({ id: 'linked' }));
    symlinkSync(linked, join(home, 'ralph-test-linked'));
    await cleanStaleWorkspaces(context(home));
    expect(existsSync(own)).toBe(false); // our own stale orphan goes
    expect(existsSync(join(data, 'w', 'precious.txt'))).toBe(true);
    expect(existsSync(join(linked, 'precious.txt'))).toBe(true);
    expect(existsSync(join(linked, '.git', 'ralph-test-workspace.json'))).toBe(true);
  });
});

describe('the tools home is private to the user', () => {
  it('is created with mode 700', () => {
    const root = tempDir('ralph-home-');
    const home = join(root, 'tools');
    toolPaths({ RALPH_TEST_TOOLS_HOME: home });
    expect(existsSync(home)).toBe(true);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('refuses a home open to others, and a symlinked one, with a clear message', () => {
    const root = tempDir('ralph-home-');
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    expect(() => toolPaths({ RALPH_TEST_TOOLS_HOME: open })).toThrow(/refusing to use .*open.*mode 755; it must be 700/);
    const real = join(root, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(root, 'link'));
    expect(() => toolPaths({ RALPH_TEST_TOOLS_HOME: join(root, 'link') })).toThrow(/is a symbolic link/);
  });

  it('ralph test refuses an open home with the unsafe_home error and touches nothing there', async () => {
    const home = tempDir('ralph-open-home-');
    chmodSync(home, 0o777);
    const planted = plantWorkspace(home, 'ralph-test-x', { id: 'x' });
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'w' });
    expect(r.exitCode).toBe(1);
    expect(r.json['error']).toMatchObject({ code: 'unsafe_home' });
    expect(r.stdout).toContain('mode 777; it must be 700');
    expect(existsSync(planted)).toBe(true);
    expect(existsSync(join(home, 'ralph-test-w'))).toBe(false);
  });
});
