import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('install.sh usage', () => {
  it('an unknown word is a usage error: exit 2, the usage and the word on stderr, nothing installed', async () => {
    const home = tempDir('ralph-install-usage-');
    const r = await execa('bash', [join(ROOT, 'install.sh'), 'bogus'], { env: cleanEnv({ HOME: home }), extendEnv: false, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: ./install.sh');
    expect(r.stderr).toContain('Error: unknown command: bogus');
  });

  it('--help is the usage on stdout with exit 0', async () => {
    const r = await execa('bash', [join(ROOT, 'install.sh'), '--help'], {
      env: cleanEnv({ HOME: tempDir('ralph-install-usage-') }),
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: ./install.sh');
  });
});
