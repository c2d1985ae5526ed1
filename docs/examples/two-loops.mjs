// Two Ralph loops at once from one Node program, on the mock backend (no agent CLI, no API key):
// each works on a task in a folder of its own, says what happens through onEvent, and one
// AbortController stops both (Ctrl+C here). Run it with `node two-loops.mjs` where `ralph-ts`
// is installed; docs/library.md explains each option. tests/e2e/library-package.test.ts runs
// this very file against the packed package, so it stays true.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop } from 'ralph-ts';

/** The agent's answers, scripted: a step of work, then the file the verify command looks for. */
function mockScript(name) {
  const status = (state, exit) => `---RALPH_STATUS---\nSTATUS: ${state}\nEXIT_SIGNAL: ${exit}\n---END_RALPH_STATUS---`;
  return {
    responses: [
      { output: `Started ${name}.\n${status('IN_PROGRESS', false)}`, files: { [`${name}.txt`]: 'first draft\n' } },
      { output: `Finished ${name}.\n${status('COMPLETE', true)}`, files: { [`${name}.txt`]: 'done\n', 'done.txt': 'yes\n' } },
    ],
  };
}

/** A folder of its own per loop: two loops never share a project. */
function folder(name) {
  const dir = mkdtempSync(join(tmpdir(), `ralph-${name}-`));
  writeFileSync(join(dir, 'mock.json'), JSON.stringify(mockScript(name)));
  return dir;
}

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

const loops = ['docs', 'tests'].map((name) => ({ name, dir: folder(name) }));
const results = await Promise.all(
  loops.map(({ name, dir }) =>
    runLoop({
      cwd: dir,
      // Task mode, as `ralph run` takes it: the verify command must pass, and the loop may go round until it does.
      task: `write ${name}.txt :: verify:"test -f done.txt" loop:true`,
      backend: 'mock',
      allowNoGit: true,
      settings: { mockScript: 'mock.json' },
      limits: { maxLoops: 5, pauseSeconds: 0 },
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === 'iteration.end') console.log(`[${name}] iteration ${event.iteration}: ${event.verdict?.label ?? event.outcome}`);
        if (event.type === 'verify.result') console.log(`[${name}] verify ${event.decision}`);
      },
    }),
  ),
);

for (const [index, { name, dir }] of loops.entries()) {
  const result = results[index];
  console.log(
    `${name}: ${result.reason} (exit ${result.exitCode}) after ${result.iterations} iterations; ${name}.txt says ${readFileSync(join(dir, `${name}.txt`), 'utf8').trim()}`,
  );
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = results.every((result) => result.exitCode === 0) ? 0 : 1;
