// A throwaway HOME with its own Claude Code config folder, and the variables that point the real
// Claude Code CLI at a fake Messages API on 127.0.0.1 with everything that would contact an
// outside host (telemetry, error reports, updates) turned off.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/** The variables every Claude Code run of the tests needs, for a config folder and a fake API. */
export function claudeQuietEnv(configDir: string, apiUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: apiUrl,
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    IS_SANDBOX: '1',
  };
}

/** A new HOME (from `prefix`) with its `.claude` folder; returns HOME and the variables above. */
export function claudeHome(prefix: string, apiUrl: string): Record<string, string> {
  const home = tempDir(prefix);
  mkdirSync(join(home, '.claude'));
  return { HOME: home, ...claudeQuietEnv(join(home, '.claude'), apiUrl) };
}
