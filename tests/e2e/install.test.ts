// install.sh into a temporary HOME, then the installed commands the way the README tells a new
// user to use them. Runs install.sh on a copy of this checkout (tracked and untracked, not ignored
// files), so npm ci and the build in the copy never touch the tree the tests run from.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Every path under `dir`, folders included, relative to it. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** Bytes in the files under `dir` (a link counted as itself). */
function footprint(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + lstatSync(join(entry.parentPath, entry.name)).size, 0);
}

function copyCheckout(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    execFileSync('cp', ['-p', join(ROOT, file), join(target, file)]);
  }
}

describe('install.sh', () => {
  it('installs into a temporary HOME, runs as documented, and uninstalls everything it installed', async () => {
    const base = tempDir('ralph-install-');
    const checkout = join(base, 'checkout');
    const home = join(base, 'home');
    const bin = join(home, '.local', 'bin');
    mkdirSync(bin, { recursive: true });
    copyCheckout(checkout);
    // A `ralph` that belongs to something else (the bash original, say) must survive.
    writeFileSync(join(bin, 'ralph'), '#!/bin/sh\necho the other ralph\n', { mode: 0o755 });
    const homeBefore = tree(home);

    const nodeDir = dirname(process.execPath);
    const basePath = `${nodeDir}:/usr/local/bin:/usr/bin:/bin`;
    const env = {
      HOME: home,
      PATH: basePath,
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      npm_config_cache: join(process.env['HOME'] ?? '/root', '.npm'),
    };
    const install = await execa('./install.sh', [], { cwd: checkout, env, extendEnv: false, reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain('is not on your PATH');
    expect(install.stdout).toContain(`Kept the existing ${join(bin, 'ralph')} as`);
    for (const cmd of ['ralph', 'ralph-setup', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-stats']) {
      expect(statSync(join(bin, cmd)).mode & 0o111).not.toBe(0);
    }
    expect(existsSync(join(home, '.local', 'share', 'ralph', 'templates', 'PROMPT.md'))).toBe(true);
    // On the Node.js the README names, npm warns about no package's engine: the one runtime package
    // that declares a newer Node.js (the sandbox runtime) is not part of the install.
    expect(install.stderr).not.toContain('EBADENGINE');
    // The installed Ralph is small: the bundle carries every package it uses, and the sandbox
    // runtime comes as a manifest and a lockfile, installed by the first run with --sandbox.
    const installed = join(home, '.local', 'share', 'ralph');
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    expect(readdirSync(join(installed, 'sandbox-runtime')).sort()).toEqual(['package-lock.json', 'package.json']);
    expect(footprint(installed)).toBeLessThanOrEqual(80 * 1024 * 1024);
    // The checkout's own install holds what building Ralph and its tests need, not the agent CLIs
    // only the conformance tests drive (tests/agent-clis installs those on first use).
    expect(footprint(join(checkout, 'node_modules'))).toBeLessThanOrEqual(300 * 1024 * 1024);
    for (const cli of ['@anthropic-ai/claude-code', '@openai/codex', '@google/gemini-cli', 'opencode-ai'])
      expect(existsSync(join(checkout, 'node_modules', cli)), cli).toBe(false);
    expect(existsSync(join(checkout, 'tests', 'agent-clis', 'node_modules'))).toBe(false);

    // Idempotent: a second install changes nothing it should not.
    const again = await execa('./install.sh', [], { cwd: checkout, env, extendEnv: false, reject: false });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readFileSync(join(bin, 'ralph.before-ralph-ts'), 'utf8')).toContain('the other ralph');

    // The README's way in: the demo, then a new project running on the mock backend.
    const userEnv = { ...env, PATH: `${bin}:${basePath}` };
    const demo = await execa('ralph', ['demo'], { cwd: home, env: userEnv, extendEnv: false, reject: false });
    expect(demo.exitCode, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('Exit reason:  project_complete');

    const setup = await execa('ralph-setup', ['my-project'], { cwd: home, env: userEnv, extendEnv: false, reject: false });
    expect(setup.exitCode, setup.stderr).toBe(0);
    const project = join(home, 'my-project');
    writeFileSync(
      join(project, '.ralph', 'mock_responses.json'),
      JSON.stringify({
        responses: [1, 2].map((n) => ({
          output: `step ${n}\n---RALPH_STATUS---\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---`,
          files: { [`src/step${n}.txt`]: String(n) },
        })),
      }),
    );
    const loop = await execa('ralph', ['--backend', 'mock', '--max-loops', '2', '--pause', '0'], {
      cwd: project,
      env: userEnv,
      extendEnv: false,
      reject: false,
    });
    expect(loop.exitCode, loop.stderr).toBe(7);
    const status = await execa('ralph', ['--status', '--json'], { cwd: project, env: userEnv, extendEnv: false });
    expect(JSON.parse(status.stdout)).toMatchObject({ loop_count: 2, exit_reason: 'max_loops' });
    const stats = await execa('ralph-stats', ['--json'], { cwd: project, env: userEnv, extendEnv: false });
    expect(JSON.parse(stats.stdout)).toMatchObject({ total_loops: 2 });

    const uninstall = await execa('./install.sh', ['uninstall'], { cwd: checkout, env, extendEnv: false, reject: false });
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    for (const cmd of ['ralph-setup', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-stats']) expect(existsSync(join(bin, cmd))).toBe(false);
    expect(readFileSync(join(bin, 'ralph'), 'utf8')).toContain('the other ralph');
    expect(existsSync(join(home, '.local', 'share', 'ralph'))).toBe(false);
    // Nothing else is left in HOME (the project made above is the user's): not the folders install
    // created, not an agent's own folders.
    expect(tree(home).filter((path) => path !== 'my-project' && !path.startsWith('my-project/'))).toEqual(homeBefore);
  }, 600_000);
});
