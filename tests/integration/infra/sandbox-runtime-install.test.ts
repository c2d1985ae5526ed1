import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { loadSandboxRuntime } from '../../../src/infra/sandbox/sandbox-runtime-package.js';
import { tempDir } from '../../helpers/temp-dir.js';

// The runtime's first install, as the first run with --sandbox does it: real npm, from the
// lockfile Ralph ships. npm runs offline, from its cache (the tier's setup installed the same
// lockfile into the checkout), so no test reaches the network.
const SHIPPED = resolve(import.meta.dirname, '..', '..', '..', 'sandbox-runtime');
const OFFLINE = { ...process.env, npm_config_offline: 'true' };

function shippedCopy(): string {
  const dir = join(tempDir('ralph-sandbox-runtime-'), 'sandbox-runtime');
  mkdirSync(dir);
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(SHIPPED, file), join(dir, file));
  return dir;
}

function load(dir: string, said: string[], signal?: AbortSignal): ReturnType<typeof loadSandboxRuntime> {
  return loadSandboxRuntime({ dir, env: OFFLINE, say: (line) => said.push(line), ...(signal ? { signal } : {}) });
}

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('.installing-') || name.includes('.old-'));
}

async function refusal(promise: Promise<unknown>): Promise<RalphError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RalphError);
  return error as RalphError;
}

describe('the sandbox runtime, installed on first use', () => {
  it('installs once from the shipped lockfile, says so, and loads the real runtime', async () => {
    const dir = shippedCopy();
    const said: string[] = [];
    const runtime = await load(dir, said);
    expect(typeof runtime.SandboxManager.isSupportedPlatform()).toBe('boolean');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Installing the sandbox runtime \(@anthropic-ai\/sandbox-runtime 0\.0\.\d+, about 20 MB\) into .*: once/);
    expect(existsSync(join(dir, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'package.json'))).toBe(true);
    expect(leftovers(dir)).toEqual([]);

    const again: string[] = [];
    await load(dir, again);
    expect(again).toEqual([]);
  });

  it('installs again when the lockfile changed (an update of Ralph)', async () => {
    const dir = shippedCopy();
    await load(dir, []);
    writeFileSync(join(dir, 'package-lock.json'), `${readFileSync(join(dir, 'package-lock.json'), 'utf8')}\n`);
    const said: string[] = [];
    await load(dir, said);
    expect(said).toHaveLength(1);
    expect(leftovers(dir)).toEqual([]);
  });

  it('two runs starting at once (a queue) both get the runtime, and one install stays', async () => {
    const dir = shippedCopy();
    const [a, b] = await Promise.all([load(dir, []), load(dir, [])]);
    expect(a.SandboxManager).toBeDefined();
    expect(b.SandboxManager).toBeDefined();
    expect(leftovers(dir)).toEqual([]);
    const after: string[] = [];
    await load(dir, after);
    expect(after).toEqual([]);
  });

  it('a failed install says why and what to do, and leaves nothing half installed', async () => {
    const dir = shippedCopy();
    // A version npm's cache does not hold: offline, npm cannot fetch it.
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; resolved?: string }> };
    const entry = lock.packages['node_modules/@anthropic-ai/sandbox-runtime'];
    if (!entry) throw new Error('the shipped lockfile has no sandbox runtime');
    entry.version = '0.0.1';
    entry.resolved = 'https://registry.npmjs.org/@anthropic-ai/sandbox-runtime/-/sandbox-runtime-0.0.1.tgz';
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const error = await refusal(load(dir, []));
    expect(error.message).toMatch(/^--sandbox cannot start: installing the sandbox runtime failed: ./);
    expect(error.hint).toMatch(/npm can reach its registry.*or run without --sandbox/);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it('an interrupted install exits as interrupted and keeps nothing', async () => {
    const dir = shippedCopy();
    const stop = new AbortController();
    stop.abort('SIGINT');
    const error = await refusal(load(dir, [], stop.signal));
    expect(error.exitCode).toBe(130);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it('refuses a package folder that is a link, or has no lockfile', async () => {
    const real = shippedCopy();
    const linked = join(tempDir('ralph-sandbox-runtime-link-'), 'sandbox-runtime');
    symlinkSync(real, linked);
    expect((await refusal(load(linked, []))).message).toMatch(
      /installation is incomplete: .*sandbox-runtime \(the sandbox runtime's package folder\) is missing or not a folder/,
    );
    const bare = join(tempDir('ralph-sandbox-runtime-bare-'), 'sandbox-runtime');
    mkdirSync(bare);
    expect((await refusal(load(bare, []))).message).toMatch(/package-lock\.json cannot be read/);
  });
});
