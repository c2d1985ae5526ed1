// kill -9 of a real loop, then a start of another kind: a crashed `ralph run '<task>'` is not
// continued by a plain `ralph` (nor by a `ralph run` of another task), and a crashed plain `ralph`
// not by a `ralph run`; the same command resumes it. A `ralph --dry-run` in between leaves the
// crashed run alone, so the next real start still resumes it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Receipt } from '../../../src/core/receipt.js';
import { readReceipts } from '../../../src/state/receipt-log.js';
import { locateRuntimeDir } from '../../../src/state/runtime-dir.js';
import { isRunning, killTracked, track } from '../../helpers/processes.js';
import { ralphProject, writeMockScript } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, runCli, statusBlock } from '../../helpers/run-cli.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(() => killTracked());

const LOOP = ['--backend', 'mock', '--pause', '0'];

/** Every call (one reply per loop number) works for a while (long enough to be caught working) and goes on. */
function project(): string {
  const dir = ralphProject();
  writeMockScript(
    dir,
    Array.from({ length: 8 }, (_, i) => ({
      trigger_pattern: `Loop #${i + 1}\\.`,
      output: `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
      files: { [`step-${i + 1}.txt`]: `${i + 1}\n` },
      delay_ms: 1500,
      cost_usd: 0.25,
      input_tokens: 1000,
      output_tokens: 10,
    })),
  );
  return dir;
}

const receiptsOf = (dir: string): Receipt[] => readReceipts(join(dir, '.ralph', 'logs', 'receipts.jsonl')).receipts;
function status(dir: string): Record<string, unknown> | undefined {
  try {
    return readJson(join(dir, '.ralph', 'status.json'));
  } catch {
    return undefined;
  }
}

/** Runs `args` until its second loop works (its first receipt written), then kills it with SIGKILL. */
async function crash(dir: string, args: string[]): Promise<string> {
  const before = existsSync(join(dir, '.ralph', 'logs', 'receipts.jsonl')) ? receiptsOf(dir).length : 0;
  const child = runCli('ralph', [...args, ...LOOP, '--max-loops', '5'], dir, cleanEnv());
  const pid = track(child.pid as number);
  await waitFor(() => {
    const s = status(dir);
    return s?.['pid'] === pid && s['loop_count'] === 2 && s['last_action'] === 'executing' && receiptsOf(dir).length === before + 1;
  }, 'loop 2 working');
  process.kill(pid, 'SIGKILL');
  await child.catch(() => undefined);
  await waitFor(() => !isRunning(pid), 'the killed loop gone');
  const runId = receiptsOf(dir).at(-1)?.run_id;
  if (runId === undefined) throw new Error('no receipt before the kill');
  return runId;
}

const TASK = ['run', 'Add a --json flag to the list command'];

describe('only the same kind of run resumes a crashed run', { timeout: 240_000 }, () => {
  it("a crashed ralph run '<task>' is not resumed by a plain ralph; a crashed plain ralph not by ralph run", async () => {
    const dir = project();
    const crashedTask = await crash(dir, TASK);
    const plain = await ralph([...LOOP, '--max-loops', '1'], dir, cleanEnv());
    expect(plain.exitCode, plain.stderr).toBe(7);
    expect(plain.stderr).not.toContain('Resuming run');
    expect(plain.stderr).toContain(
      `Starting a new run: the run a crash cut short (${crashedTask}) is not resumed, it was \`ralph run '<task>'\`, this is a plain \`ralph\` (the fix plan). Its receipts stay.`,
    );
    const plainRun = receiptsOf(dir).at(-1);
    expect(plainRun?.run_id).not.toBe(crashedTask);
    expect(plainRun?.loop).toBe(1);

    const crashedPlain = await crash(dir, []);
    const task = await ralph([...TASK, ...LOOP, '--max-loops', '1'], dir, cleanEnv());
    expect(task.stderr).not.toContain('Resuming run');
    expect(task.stderr).toContain(
      `the run a crash cut short (${crashedPlain}) is not resumed, it was a plain \`ralph\` (the fix plan), this is \`ralph run '<task>'\``,
    );
    expect(receiptsOf(dir).at(-1)).toMatchObject({ loop: 1 });
    expect(receiptsOf(dir).at(-1)?.run_id).not.toBe(crashedPlain);
  });

  it('a crashed ralph run is not resumed by a ralph run of another task, and is by the same task', async () => {
    const dir = project();
    const first = await crash(dir, TASK);
    const other = await ralph(['run', 'Fix the login redirect', ...LOOP, '--max-loops', '1'], dir, cleanEnv());
    expect(other.stderr).toContain(`the run a crash cut short (${first}) is not resumed, it was a \`ralph run\` of another task`);

    const second = await crash(dir, TASK);
    const same = await ralph([...TASK, ...LOOP, '--max-loops', '3'], dir, cleanEnv());
    expect(same.exitCode, same.stderr).toBe(7);
    expect(same.stderr).toContain(`Resuming run ${second} after a crash at loop 2`);
    expect(
      receiptsOf(dir)
        .filter((r) => r.run_id === second)
        .map((r) => r.loop),
    ).toEqual([1, 3]);
  });

  it('ralph --dry-run after a crash leaves the crashed run for the next ralph to resume', async () => {
    const dir = project();
    const crashed = await crash(dir, []);
    const runFilePath = join(locateRuntimeDir(dir, cleanEnv()), 'run.json');
    const runFile = readJson<Record<string, unknown>>(runFilePath);
    const crashedStatus = readJson(join(dir, '.ralph', 'status.json'));
    expect(runFile).toMatchObject({ run_id: crashed, run_kind: 'plan' });
    const dry = await ralph(['--dry-run', ...LOOP, '--max-loops', '1'], dir, cleanEnv());
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('Dry run: the run a crash cut short is left as it is, for the same command without --dry-run to resume.');
    expect(readJson(runFilePath)).toEqual(runFile);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toEqual(crashedStatus);
    const resumed = await ralph([...LOOP, '--max-loops', '3'], dir, cleanEnv());
    expect(resumed.exitCode, resumed.stderr).toBe(7);
    expect(resumed.stderr).toContain(`Resuming run ${crashed} after a crash at loop 2`);
    expect(receiptsOf(dir).map((r) => [r.run_id, r.loop])).toEqual([
      [crashed, 1],
      [crashed, 3],
    ]);
  });
});
