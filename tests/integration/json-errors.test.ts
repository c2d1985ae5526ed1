// With --json, a command that fails prints one JSON error document on stdout
// (and the usual words on stderr), whichever command and whichever failure.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

async function run(name: string, args: string[], cwd: string): Promise<{ code: number | undefined; doc: { error: Record<string, unknown> }; stderr: string }> {
  const r = await runCli(name, args, cwd, cleanEnv());
  const stdout = String(r.stdout);
  expect(stdout.trimEnd().split('\n'), stdout).toHaveLength(1);
  return { code: r.exitCode, doc: JSON.parse(stdout) as { error: Record<string, unknown> }, stderr: String(r.stderr) };
}

describe('the --json error envelope', () => {
  it('ralph --checkpoints --json outside a git repository', async () => {
    const dir = tempDir('ralph-json-');
    mkdirSync(join(dir, '.ralph'));
    const r = await run('ralph', ['--checkpoints', '--json'], dir);
    expect(r.code).toBe(1);
    expect(r.doc.error).toMatchObject({ code: 1, kind: 'runtime' });
    expect(r.doc.error['message']).toContain('Cannot list checkpoints');
    expect(r.stderr).toContain('Error: Cannot list checkpoints');
  });

  it('ralph --reset-circuit --json outside a project', async () => {
    const r = await run('ralph', ['--reset-circuit', '--json'], tempDir('ralph-json-'));
    expect(r.code).toBe(1);
    expect(r.doc.error).toMatchObject({ code: 1, kind: 'not_a_project' });
    expect(r.doc.error['hint']).toContain('ralph-enable');
  });

  it('ralph --status --json outside a project is the same envelope', async () => {
    const r = await run('ralph', ['--status', '--json'], tempDir('ralph-json-'));
    expect(r.code).toBe(1);
    expect(r.doc.error).toMatchObject({ code: 1, kind: 'not_a_project' });
  });

  it('ralph --json (the loop) outside a project names the ways in', async () => {
    const r = await run('ralph', ['--json'], tempDir('ralph-json-'));
    expect(r.code).toBe(1);
    expect(r.doc.error).toMatchObject({ code: 1, kind: 'not_a_project' });
    expect(r.doc.error['hint']).toContain('ralph-enable');
  });

  it('a usage error of a command that prints JSON', async () => {
    const ralph = await run('ralph', ['--status', '--json', '--bogus'], tempDir('ralph-json-'));
    expect(ralph.code).toBe(2);
    expect(ralph.doc).toEqual({ error: { code: 2, kind: 'usage', message: "unknown option '--bogus'", hint: 'Run ralph --help to see every option.' } });
    const monitor = await run('ralph-monitor', ['--json', '--interval', '0'], tempDir('ralph-json-'));
    expect(monitor.code).toBe(2);
    expect(monitor.doc.error).toMatchObject({ code: 2, kind: 'usage', hint: 'Run ralph-monitor --help to see every option.' });
  });

  it('without --json nothing is printed on stdout', async () => {
    const r = await runCli('ralph', ['--reset-circuit'], tempDir('ralph-json-'), cleanEnv());
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toContain('is not a Ralph project');
  });
});
