import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** These tests spawn the built commands: run `npm run build` first (npm test does). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const FAKE_CLAUDE_BIN = join(REPO_ROOT, 'tests/fixtures/bin');

export type ProjectCommand = 'ralph' | 'ralph-setup' | 'ralph-enable' | 'ralph-import';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function assertBuilt(): void {
  for (const name of ['ralph-setup', 'ralph-enable', 'ralph-import']) {
    if (!existsSync(join(REPO_ROOT, 'dist/bundle', `${name}.js`))) throw new Error(`dist/bundle/${name}.js is missing: run npm run build first`);
  }
}

/**
 * The environment of a user with no git configuration at all: HOME points at
 * an empty folder, system config is off, and git's identity variables are gone.
 */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(GIT_|EMAIL$|XDG_CONFIG_HOME$|CLAUDE_CODE_CMD$|RALPH_|FAKE_CLAUDE_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1', ...extra };
}

/** Runs `node bin/<command>.js args` with stdin closed (so never a TTY). */
export function runCommand(command: ProjectCommand, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CommandResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', `${command}.js`), ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}
