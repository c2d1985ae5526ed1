// `import { runLoop } from 'ralph-ts'` the way a user gets it: the package `npm pack` makes,
// installed into a project of its own; it type-checks there with tsc, a program drives a loop on
// the mock backend and stops it with an AbortSignal, and docs/examples/two-loops.mjs runs as
// published. Needs `npm run build` (the e2e setup builds first).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const env = (tmp: string): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: process.env['HOME'] ?? '/tmp',
  LANG: 'C.UTF-8',
  NO_COLOR: '1',
  TMPDIR: tmp,
  npm_config_cache: join(process.env['HOME'] ?? '/root', '.npm'),
  npm_config_update_notifier: 'false',
});

/** A typed program: every option and event it touches must exist in the published declarations. */
const TYPED_PROGRAM = `import { runLoop, RalphError, UsageError, ExitCode, type LoopEvent, type RunLoopOptions, type RunLoopResult, type ExitReason } from 'ralph-ts';

const controller = new AbortController();
const options: RunLoopOptions = {
  cwd: process.argv[2] ?? '.',
  task: 'write a.txt',
  backend: 'mock',
  allowNoGit: true,
  settings: { mockScript: 'mock.json' },
  limits: { maxLoops: 3, pauseSeconds: 0 },
  signal: controller.signal,
  onEvent: (event: LoopEvent) => {
    if (event.type === 'call.start') controller.abort();
    if (event.type === 'loop.exit') console.log(JSON.stringify({ exit: event.reason, iterations: event.iterations }));
  },
};
const result: RunLoopResult = await runLoop(options);
const reason: ExitReason = result.reason;
console.log(JSON.stringify({ reason, exitCode: result.exitCode, interrupted: result.exitCode === ExitCode.Sigint }));
try {
  await runLoop({ cwd: '/nonexistent-folder-of-ralph-test', limits: { maxLoops: -1 } });
} catch (error) {
  console.log(JSON.stringify({ usage: error instanceof UsageError, ralph: error instanceof RalphError }));
}
`;

describe('the ralph-ts package as a library', () => {
  it('packs its bundle, declarations and schema; installs offline; type-checks, runs and stops a loop; runs the two-loop example', async () => {
    const tmp = tempDir('ralph-library-');
    const packed = await execa('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, env: env(tmp), extendEnv: false });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = (info?.files ?? []).map((f) => f.path);
    for (const file of [
      'dist/bundle/library.js',
      'dist/types/library/index.d.ts',
      'dist/types/engine/loop-events.d.ts',
      'docs/schemas/loop-event.schema.json',
      'bin/ralph.js',
    ])
      expect(files).toContain(file);
    // Only the declarations the public surface refers to are published.
    expect(files.filter((f) => f.startsWith('dist/types/')).length).toBeLessThan(40);

    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-ralph', private: true, type: 'module' }));
    const install = await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', join(tmp, info?.filename ?? '')], {
      cwd: app,
      env: env(tmp),
      extendEnv: false,
      reject: false,
    });
    expect(install.exitCode, install.stderr).toBe(0);

    // The types: a strict program against the installed package, with Node's own types only.
    writeFileSync(join(app, 'main.ts'), TYPED_PROGRAM);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['main.ts'],
      }),
    );
    const tsc = await execa(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', app], { cwd: app, env: env(tmp), extendEnv: false, reject: false });
    expect(tsc.exitCode, tsc.stdout + tsc.stderr).toBe(0);
    // A wrong option is caught by the declarations.
    writeFileSync(join(app, 'main.ts'), `${TYPED_PROGRAM}\nawait runLoop({ cwd: '.', limits: { maxLoop: 3 } });\n`);
    const wrong = await execa(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', app], { cwd: app, env: env(tmp), extendEnv: false, reject: false });
    expect(wrong.stdout).toContain("'maxLoop' does not exist");

    // The same program as JavaScript, run: the loop starts, the AbortSignal stops it.
    const work = join(tmp, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'mock.json'), JSON.stringify({ responses: [{ output: 'working', delay_ms: 600_000 }] }));
    const js = TYPED_PROGRAM.replace(/, type [A-Za-z]+/g, '').replace(/: (RunLoopOptions|RunLoopResult|ExitReason|LoopEvent)\b/g, '');
    writeFileSync(join(app, 'main.mjs'), js);
    const run = await execa(process.execPath, ['main.mjs', work], { cwd: app, env: env(tmp), extendEnv: false, reject: false, timeout: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { exit: 'interrupted', iterations: 1 },
      { reason: 'interrupted', exitCode: 130, interrupted: true },
      { usage: true, ralph: true },
    ]);
    const schema = await execa(process.execPath, ['-e', "console.log(require.resolve('ralph-ts/loop-event.schema.json'))"], {
      cwd: app,
      env: env(tmp),
      extendEnv: false,
    });
    expect(JSON.parse(readFileSync(schema.stdout.trim(), 'utf8'))).toMatchObject({ title: expect.stringContaining('ralph --events') });

    // The published example, as a user runs it.
    copyFileSync(join(ROOT, 'docs', 'examples', 'two-loops.mjs'), join(app, 'two-loops.mjs'));
    const example = await execa(process.execPath, ['two-loops.mjs'], { cwd: app, env: env(tmp), extendEnv: false, reject: false, timeout: 60_000 });
    expect(example.exitCode, example.stderr).toBe(0);
    expect(example.stdout).toMatch(/^docs: project_complete \(exit 0\) after 2 iterations; docs\.txt says done$/m);
    expect(example.stdout).toMatch(/^tests: project_complete \(exit 0\) after 2 iterations; tests\.txt says done$/m);
    // Both loops ran at once: the second began before the first finished.
    const lines = example.stdout.split('\n');
    expect(lines.findIndex((l) => l.startsWith('[tests] iteration 1'))).toBeLessThan(lines.findIndex((l) => l.startsWith('[docs] iteration 2')));
  });
});
