// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralph } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('what a mistyped command line gets back', () => {
  it('a mistyped command suggests the nearest one (exit 2)', async () => {
    const r = await ralph(['demoo'], tempDir('ralph-words-'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown command "demoo"; did you mean demo?');
  });

  it('a word that is no command lists the commands (exit 2)', async () => {
    const r = await ralph(['zzz'], tempDir('ralph-words-'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown command "zzz"; the commands are run, demo, .*queue/);
  });

  it('a choice flag lists only real choices', async () => {
    const r = await ralph(['--verify-preset', 'turbo', '--dry-run'], tempDir('ralph-words-'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid value for --verify-preset: "turbo"; expected one of fast, full, extended');
    expect(r.stderr).not.toContain('one of ,');
  });

  it('an unknown .ralphrc key suggests the nearest key', async () => {
    const dir = tempDir('ralph-words-');
    mkdirSync(join(dir, '.ralph'));
    writeFileSync(join(dir, '.ralphrc'), 'MAX_CALS_PER_HOUR=3\n');
    const r = await ralph(['--config'], dir);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('.ralphrc:1: unknown key MAX_CALS_PER_HOUR (ignored); did you mean MAX_CALLS_PER_HOUR?');
  });

  it('a prompt file named by -p that does not exist is a usage error naming it', async () => {
    const dir = tempDir('ralph-words-');
    mkdirSync(join(dir, '.ralph'));
    const r = await ralph(['-p', 'nope.md'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--prompt nope.md: no such file (looked for ${join(dir, 'nope.md')})`);
    expect(r.stderr).not.toContain('ralph-enable');
  });
});
