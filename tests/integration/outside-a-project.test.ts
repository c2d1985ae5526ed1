// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

// A command that only shows a project's state, run in a folder that holds no
// project, must fail: "nothing running" with exit 0 reads as "all well" to a
// script that ran in the wrong folder.
const SHOWING: Array<[string, string, string[]]> = [
  ['ralph --status', 'ralph', ['--status']],
  ['ralph --status --json', 'ralph', ['--status', '--json']],
  ['ralph --circuit-status', 'ralph', ['--circuit-status']],
  ['ralph --circuit-status --json', 'ralph', ['--circuit-status', '--json']],
  ['ralph-monitor --once', 'ralph-monitor', ['--once']],
  ['ralph-monitor --json', 'ralph-monitor', ['--json']],
  ['ralph queue list', 'ralph', ['queue', 'list']],
  ['ralph queue status', 'ralph', ['queue', 'status']],
];

describe('state commands outside a Ralph project', () => {
  it.each(SHOWING)('%s says there is no project here and exits 1', async (_name, bin, args) => {
    const dir = tempDir('ralph-no-project-');
    const r = await runCli(bin, args, dir);
    expect(r.exitCode).toBe(1);
    const said = `${String(r.stdout)}${String(r.stderr)}`;
    expect(said).toContain(`${dir} is not a Ralph project (there is no .ralph/ directory)`);
    expect(said).toContain('ralph-enable');
  });

  it.each(SHOWING)('%s answers with exit 0 in a project that has not run yet', async (_name, bin, args) => {
    const dir = tempDir('ralph-no-run-yet-');
    mkdirSync(join(dir, '.ralph'));
    const r = await runCli(bin, args, dir);
    expect(r.exitCode).toBe(0);
  });

  it('a flag the parser refuses stays a usage error (exit 2) outside a project', async () => {
    const r = await runCli('ralph', ['--status', '--bogus'], tempDir('ralph-no-project-'));
    expect(r.exitCode).toBe(2);
  });
});
