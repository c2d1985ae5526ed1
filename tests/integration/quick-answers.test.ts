// `ralph --help` and `--version` are answered from text the build rendered,
// without loading commander: the answer must be exactly what commander prints.
// Needs `npm run build` (which renders the help).
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cleanEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** What the commander parser of the built cli prints for argv, bypassing the quick answers. */
async function parserOutput(argv: readonly string[], cwd: string): Promise<string> {
  const module = JSON.stringify(join(ROOT, 'dist', 'cli', 'ralph-command.js'));
  const script = `const { runRalph } = await import(${module}); process.exitCode = await runRalph(${JSON.stringify(argv)});`;
  const r = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd, env: cleanEnv(), extendEnv: false, stdin: 'ignore' });
  return String(r.stdout);
}

describe('ralph --help and --version without the parser', () => {
  it('the build rendered the help', () => {
    expect(existsSync(join(ROOT, 'dist', 'bundle', 'ralph-help.txt'))).toBe(true);
  });

  it.each([['--help'], ['-h'], ['--version'], ['-V']])('ralph %s prints what commander prints', async (flag) => {
    const cwd = tempDir('quick-');
    const r = await runCli('ralph', [flag], cwd, cleanEnv());
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toBe('');
    expect(String(r.stdout)).toBe(await parserOutput([flag], cwd));
  });
});
