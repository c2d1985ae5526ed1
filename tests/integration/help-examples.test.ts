// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ralph, ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The `$ command` lines of a help text's Examples section, in order. */
function exampleCommands(help: string): string[] {
  const section = help.slice(help.indexOf('\nExamples:'), help.indexOf('\nExit codes:'));
  return section
    .split('\n')
    .filter((line) => line.trimStart().startsWith('$ '))
    .map((line) => line.trimStart().slice(2));
}

describe('ralph test --help', () => {
  it('its examples run in order as a user would type them, each exiting 0', async () => {
    const help = await ralph(['test', '--help'], tempDir('ralph-help-examples-'));
    const commands = exampleCommands(help.stdout);
    expect(commands.length).toBeGreaterThanOrEqual(3);

    // `ralph` on the PATH is the built one; the workspaces go to a temp folder of this test.
    const bin = tempDir('ralph-help-bin-');
    writeFileSync(join(bin, 'ralph'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'ralph.js')}" "$@"\n`);
    chmodSync(join(bin, 'ralph'), 0o755);
    const env = cleanEnv({ PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, RALPH_TEST_TOOLS_HOME: tempDir('ralph-help-tools-') });
    const cwd = tempDir('ralph-help-cwd-');

    const outputs = commands.map((command) => {
      try {
        return execFileSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 60_000 });
      } catch (error) {
        throw new Error(`the help example failed: ${command}\n${String((error as { stderr?: unknown }).stderr ?? error)}`);
      }
    });
    const run = outputs[commands.findIndex((c) => c.includes('ralph test run'))];
    expect(JSON.parse(run ?? '{}')).toMatchObject({ exit_code: 0, termination_reason: 'plan_complete' });
    const assertion = outputs[commands.findIndex((c) => c.includes('ralph test assert'))];
    expect(JSON.parse(assertion ?? '{}')).toMatchObject({ passed: true, failed_count: 0 });
  });
});
