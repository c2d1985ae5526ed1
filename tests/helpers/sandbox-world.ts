import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv } from './run-cli.js';
import { tempDir } from './temp-dir.js';

/** What a Debian or Ubuntu machine installs for `ralph --sandbox` (other systems: the same tools by their package manager). */
const SANDBOX_PACKAGES = 'apt-get install bubblewrap socat ripgrep';

/**
 * Why this machine cannot run Ralph's sandbox, or undefined when it can: bubblewrap missing or
 * unable to create namespaces (a container without user namespaces), socat or ripgrep missing.
 * The sandbox tests skip only then, saying what to install; .ci/run installs them and runs them.
 */
export function bwrapUnavailable(): string | undefined {
  const r = spawnSync('bwrap', ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    encoding: 'utf8',
  });
  if (r.error) return `bubblewrap is not installed (${SANDBOX_PACKAGES})`;
  if (r.status !== 0) return `bubblewrap cannot create namespaces here: ${r.stderr.trim()}`;
  for (const [tool, name] of [
    ['socat', 'socat'],
    ['rg', 'ripgrep'],
  ] as const) {
    if (spawnSync(tool, ['--version'], { encoding: 'utf8' }).error) return `${name} is not installed (${SANDBOX_PACKAGES})`;
  }
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
