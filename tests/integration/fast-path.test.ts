// Every argv of the fast-path table (src/cli/fast-path.ts), run through both
// paths: the built command in bin/, which answers it without commander, and the
// command's parser (`program()` of dist/cli/<command>.js) given the same argv. They must print
// the same bytes and end with the same exit code, and the built command must
// really have answered without the parser.
// Needs `npm run build`.
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_PATHS } from '../../src/cli/fast-path.js';
import { cleanEnv, ROOT, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Run {
  stdout: string;
  stderr: string;
  exitCode?: number | undefined;
}

/** Times in the output (a snapshot's `takenAt`, the clock of a frame, "updated 21s ago") move between the two runs. */
const steady = (text: string): string =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/\b\d\d:\d\d:\d\d\b/g, '<clock>')
    .replace(/\b(\d+[hms] ?)+ago\b/g, '<age> ago');

const ROWS = FAST_PATHS.flatMap((row) => row.argvs.map((argv) => [`${row.binary} ${argv.join(' ')}`.trim(), row.binary, argv] as const));

describe('the fast path answers exactly what the parser answers', () => {
  // One folder for every row: a project and the two helper scripts.
  const dir = mkdtempSync(join(tmpdir(), 'fast-path-'));
  const project = join(dir, 'project');
  const viaParser = join(dir, 'via-parser.mjs');
  const recorder = join(dir, 'record-loaded.cjs');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    mkdirSync(join(project, '.ralph'), { recursive: true });
    writeFileSync(join(project, '.ralph', 'PROMPT.md'), '# Task\n');
    writeFileSync(join(project, '.ralph', 'fix_plan.md'), '- [ ] first task\n');
    writeFileSync(join(project, '.ralph', 'AGENT.md'), '# Agent\n');
    writeFileSync(join(project, '.ralphrc'), '');
    writeFileSync(join(project, '.ralph', 'mock_responses.json'), JSON.stringify({ responses: [] }));
    // One finished run: a status, a circuit, metrics and a log for the answers to read.
    const run = await runCli('ralph', ['--backend', 'mock', '--dry-run', '--pause', '0', '--max-loops', '1'], project);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    writeFileSync(
      viaParser,
      `const { program } = await import(${JSON.stringify(join(ROOT, 'dist', 'cli'))} + '/' + process.env.FAST_PATH_BINARY + '.js');\nawait program();\n`,
    );
    writeFileSync(
      recorder,
      `process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_RECORD, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache) })));`,
    );
  }, 120_000);

  it('lists each argv once', () => {
    const names = ROWS.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(ROWS)('%s', async (_, binary, argv) => {
    const record = join(tempDir('loaded-'), 'loaded.json');
    const options = { cwd: project, extendEnv: false, reject: false, stdin: 'ignore' } as const;
    const [fast, parser] = await Promise.all([
      execa(process.execPath, ['--require', recorder, join(ROOT, 'bin', `${binary}.js`), ...argv], { ...options, env: cleanEnv({ LOADED_RECORD: record }) }),
      execa(process.execPath, [viaParser, ...argv], { ...options, env: cleanEnv({ FAST_PATH_BINARY: binary }) }),
    ]);
    const result = (r: Run): Run => ({ stdout: steady(String(r.stdout)), stderr: steady(String(r.stderr)), exitCode: r.exitCode });
    expect(String(fast.stdout).length).toBeGreaterThan(0);
    expect(result(fast)).toEqual(result(parser));
    // Answered by the CommonJS fast path alone: no ES module (the parser's bundle) was loaded.
    const loaded = JSON.parse(readFileSync(record, 'utf8')) as { modules: string[]; files: string[] };
    expect(loaded.modules).not.toContain('NativeModule internal/modules/esm/module_job');
    for (const file of loaded.files.filter((f) => f !== recorder)) expect(relative(ROOT, file)).toMatch(/^(bin\/[a-z-]+\.js|dist\/bundle\/fast-[a-z-]+\.cjs)$/);
  });
});
