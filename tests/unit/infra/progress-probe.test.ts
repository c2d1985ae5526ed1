import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgressProbe } from '../../../src/infra/progress-probe.js';
import { fakeRunner, type FakeCall } from '../../helpers/fake-runner.js';
import { tempDir } from '../../helpers/temp-dir.js';

const HEAD = 'a'.repeat(40);

/** A repository whose `git status` answers with the untracked files listed in `untracked`. */
function repository() {
  const dir = tempDir('ralph-probe-');
  mkdirSync(join(dir, 'src'));
  const untracked: string[] = [];
  const runner = fakeRunner([
    { command: 'git rev-parse --show-toplevel', result: { stdout: `${dir}\n\n.git\n` } },
    {
      command: 'git --no-optional-locks status',
      result: () => ({ stdout: [`# branch.oid ${HEAD}`, ...untracked.map((p) => `? ${p}`), ''].join('\0') }),
    },
  ]);
  return { dir, untracked, runner };
}

const statusCalls = (calls: FakeCall[]): FakeCall[] => calls.filter((c) => c.args.includes('status'));

describe('git progress probe', () => {
  it('starts one git process per iteration: the status after the call is the next iteration’s starting point', async () => {
    const { dir, untracked, runner } = repository();
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    for (let i = 1; i <= 3; i += 1) {
      await probe.begin();
      writeFileSync(join(dir, 'src', `f${i}.txt`), String(i));
      untracked.push(`src/f${i}.txt`);
      expect(await probe.measure()).toMatchObject({ filesChanged: 1, changedFiles: [`src/f${i}.txt`] });
    }
    expect(runner.lines().filter((l) => l.startsWith('git rev-parse'))).toHaveLength(1);
    expect(statusCalls(runner.calls)).toHaveLength(1 + 3);
  });

  it('asks git to leave Ralph’s own state directory out of the status', async () => {
    const { dir, runner } = repository();
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    const [call] = statusCalls(runner.calls);
    expect(call?.args.slice(call.args.indexOf('--'))).toEqual(['--', ':(top)', ':(top,exclude).ralph']);
  });

  it('asks git for HEAD without counting the commits between the branch and its upstream', async () => {
    const { dir, runner } = repository();
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    const [call] = statusCalls(runner.calls);
    expect(call?.args).toContain('--no-ahead-behind');
  });
});
