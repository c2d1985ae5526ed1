import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv } from './run-cli.js';
import { tempDir } from './temp-dir.js';

/**
 * Why this machine cannot run bubblewrap, or undefined when it can. The sandbox tests skip
 * only then (a container without user namespaces); CI installs bubblewrap and runs them.
 */
export function bwrapUnavailable(): string | undefined {
  const r = spawnSync('bwrap', ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    encoding: 'utf8',
  });
  if (r.error) return `bubblewrap is not installed (${r.error.message})`;
  if (r.status !== 0) return `bubblewrap cannot create namespaces here: ${r.stderr.trim()}`;
  const socat = spawnSync('socat', ['-V'], { encoding: 'utf8' });
  if (socat.error) return 'socat is not installed';
  return undefined;
}

/** The planted private key: its text must never reach anything Ralph writes or prints. */
export const PLANTED_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nPLANTEDsandboxKEY4242notreal\n-----END OPENSSH PRIVATE KEY-----\n';

/**
 * A home and a temp dir of their own for a sandboxed run, outside the project: the temp dir is
 * writable in the sandbox and the home is not, so neither may hold the other. The home holds a
 * fake ~/.ssh/id_rsa.
 */
export function sandboxWorld(): { home: string; tmp: string; env: (extra?: Record<string, string>) => Record<string, string> } {
  const base = tempDir('ralph-sandbox-world-');
  const home = join(base, 'home');
  const tmp = join(base, 'tmp');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(tmp);
  writeFileSync(join(home, '.ssh', 'id_rsa'), PLANTED_KEY, { mode: 0o600 });
  return { home, tmp, env: (extra = {}) => cleanEnv({ HOME: home, TMPDIR: tmp, ...extra }) };
}

/** Every file under `dir` (following no links), for a search of what Ralph wrote. */
export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...allFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** PIDs of the processes whose environment holds `name=value` (how a test finds a sandboxed tree from outside). */
export function processesWithEnv(name: string, value: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (environ.split('\0').includes(`${name}=${value}`)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}
