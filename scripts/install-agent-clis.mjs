// Installs the real agent CLIs the integration tier drives (Claude Code, Codex, Gemini CLI,
// OpenCode) into tests/agent-clis/, from its own lockfile. They are about 1 GB, so they are not
// part of the root install: the integration tier's setup (and .ci/run) calls this, and it does
// nothing while node_modules there still matches the lockfile.
//
// The CLIs' install scripts pick the native binary for this machine (they must run), and
// OpenCode's starts the binary once, which creates its folders in $HOME and the XDG folders. So
// npm runs with a throwaway HOME and XDG folders, and the user's npm cache and settings passed
// through by name: nothing lands in the user's home.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../tests/agent-clis/', import.meta.url));
/** Written after a complete install: the hash of the lockfile it installed. */
const STAMP = join(DIR, 'node_modules', '.installed-lock-sha256');

const lockHash = createHash('sha256')
  .update(readFileSync(join(DIR, 'package-lock.json')))
  .digest('hex');
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === lockHash) process.exit(0);

const npmConfig = (key) => execFileSync('npm', ['config', 'get', key], { cwd: DIR, encoding: 'utf8' }).trim();
const home = mkdtempSync(join(tmpdir(), 'ralph-agent-clis-home-'));
try {
  process.stderr.write('Installing the agent CLIs the integration tests drive into tests/agent-clis (about 1 GB, once; npm ci)...\n');
  const env = {
    ...process.env,
    npm_config_cache: npmConfig('cache'),
    npm_config_userconfig: npmConfig('userconfig'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: DIR, env, stdio: 'inherit' });
  writeFileSync(STAMP, `${lockHash}\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
