// What ralph queue run shares and reports, through the built CLI: one hourly call limit for all
// loops, `ralph queue status` showing each running loop, `queue clean`, and --report on a loop.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import lockfile from 'proper-lockfile';
import { recordCallStart, recordCallTokens, windowUsage } from '../../../src/core/rate-limiter.js';
import { SharedRate, sharedRateFile } from '../../../src/state/shared-rate.js';
import { git } from '../../helpers/git-repo.js';
import { publishedSchema, schemaProblems } from '../../helpers/json-schema.js';
import { killTracked, track } from '../../helpers/processes.js';
import { cleanEnv, ralph, runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait-for.js';
import { addTasks, branches, mockFlags, queueCli, queueItems, queueProject, worktreeList, writeItemScript } from './queue-run-helpers.js';

afterEach(() => killTracked());

interface LoopStatus {
  totals: { calls: number };
  waiting: { reason: string } | null;
}

function loopStatus(project: string, worktree: string | undefined): LoopStatus | undefined {
  try {
    return JSON.parse(readFileSync(join(project, worktree ?? '', '.ralph', 'status.json'), 'utf8')) as LoopStatus;
  } catch {
    return undefined;
  }
}

describe('one hourly call limit for all loops', () => {
  it('--calls 3 across two loops: three calls in all, then every loop waits for the window', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript(
      ['alpha', 'beta'].map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'more\n' }, delayMs: 200, done: false })),
      5,
    );
    await addTasks(project, ['alpha', 'beta']);
    const run = queueCli(['run', '--parallel', '2', '--calls', '3', ...mockFlags(script, 5)], project);
    track(run.pid ?? 0);
    await waitFor(
      () => {
        const items = queueItems(project).filter((item) => item.state === 'running');
        return items.length === 2 && items.every((item) => loopStatus(project, item.worktree)?.waiting?.reason === 'rate_limit');
      },
      'both loops waiting for the shared call limit',
      30_000,
    );
    const items = queueItems(project);
    const calls = items.map((item) => loopStatus(project, item.worktree)?.totals.calls ?? 0);
    expect(calls.reduce((sum, n) => sum + n, 0)).toBe(3);
    const shared = JSON.parse(readFileSync(join(project, '.ralph', '.rate_limit_state'), 'utf8')) as { calls: unknown[] };
    expect(shared.calls).toHaveLength(3);

    // Meanwhile `ralph queue status` shows each running loop.
    const status = await queueCli(['status'], project);
    expect(String(status.stdout)).toMatch(/Loops:\n {2}t1 {2}loop \d+ {2}\S+ {2}\$0\.\d{4}.*\n {2}t2 {2}loop \d+ {2}\S+ {2}\$0\.\d{4}/);
    const json = JSON.parse(String((await queueCli(['status', '--json'], project)).stdout)) as {
      running: { id: string; loop: { id: string; loop: number; state: string } }[];
    };
    expect(json.running.map((item) => [item.id, item.loop.id])).toEqual([
      ['t1', 't1'],
      ['t2', 't2'],
    ]);
    expect(json.running.every((item) => item.loop.loop >= 1)).toBe(true);
    // And so does ralph-monitor, in its Queue section.
    const monitor = await runCli('ralph-monitor', ['--once'], project, cleanEnv());
    expect(String(monitor.stdout)).toMatch(/\nQueue\n {2}t1 {2}loop \d+ .*\n {2}t2 {2}loop \d+ /);
    run.kill('SIGINT');
    expect((await run).exitCode).toBe(130);
  });

  it('two loops recording calls at once both count; a foreign file is never used', async () => {
    const project = tempDir('shared-rate-');
    const file = join(project, '.ralph', '.rate_limit_state');
    mkdirSync(join(project, '.ralph'));
    const worktree = join(project, '.ralph', 'worktrees', 't1');
    expect(sharedRateFile({ RALPH_SHARED_RATE_FILE: file }, worktree)).toBe(file);
    expect(sharedRateFile({ RALPH_SHARED_RATE_FILE: file }, tempDir('elsewhere-'))).toBeUndefined();
    expect(sharedRateFile({ RALPH_SHARED_RATE_FILE: join(project, 'notes.txt') }, worktree)).toBeUndefined();
    expect(sharedRateFile({ RALPH_SHARED_RATE_FILE: '.ralph/.rate_limit_state' }, worktree)).toBeUndefined();

    const now = Date.now();
    const a = new SharedRate(file, 'loop-a');
    const b = new SharedRate(file, 'loop-b');
    const ownA = a.view({ calls: [] });
    const ownB = b.view({ calls: [] });
    const callA = recordCallStart(ownA, now - 2, a.nextCallId());
    await a.record(callA, now);
    // b read before a wrote: its record must not drop a's call.
    const seenByB = await b.record(recordCallStart(ownB, now - 1, b.nextCallId()), now);
    expect(seenByB.calls.map((c) => c.at)).toEqual([now - 2, now - 1]);
    // a's tokens for its call land on its own record.
    // As the loop does: the tokens go on its latest call when the call ends, with no read between.
    await a.record(recordCallTokens(callA, 500), now);
    expect(new SharedRate(file).view({ calls: [] }).calls).toEqual([
      { at: now - 2, tokens: 500, id: 'loop-a#1' },
      { at: now - 1, tokens: 0, id: 'loop-b#1' },
    ]);
  });

  it('two loops’ calls in the same millisecond are two calls, each with its own tokens', async () => {
    const project = tempDir('shared-rate-');
    mkdirSync(join(project, '.ralph'));
    const file = join(project, '.ralph', '.rate_limit_state');
    // One clock for both loops: every call is made at the same millisecond.
    const clock = { now: () => 1_700_000_000_000 };
    const a = new SharedRate(file, 'loop-a');
    const b = new SharedRate(file, 'loop-b');
    let ownA = recordCallStart(a.view({ calls: [] }), clock.now(), a.nextCallId());
    let ownB = recordCallStart(b.view({ calls: [] }), clock.now(), b.nextCallId());
    await Promise.all([a.record(ownA, clock.now()), b.record(ownB, clock.now())]);
    // The tokens go on each loop's latest call when it ends (no read of the shared file between, as in the loop).
    ownA = recordCallTokens(ownA, 100);
    ownB = recordCallTokens(ownB, 7);
    await Promise.all([a.record(ownA, clock.now()), b.record(ownB, clock.now())]);
    // Each loop's second call, again in that millisecond.
    ownA = recordCallStart(a.view(ownA), clock.now(), a.nextCallId());
    await a.record(ownA, clock.now());
    const calls = new SharedRate(file, 'reader').view({ calls: [] }).calls;
    expect(calls.map((c) => [c.id, c.at, c.tokens]).sort()).toEqual([
      ['loop-a#1', clock.now(), 100],
      ['loop-a#2', clock.now(), 0],
      ['loop-b#1', clock.now(), 7],
    ]);
    expect(windowUsage({ calls }, clock.now())).toMatchObject({ calls: 3, tokens: 107 });
  });

  it('loops that all see the last call free cannot all make it: the claims are checked and recorded under one lock', async () => {
    const project = tempDir('shared-rate-');
    mkdirSync(join(project, '.ralph'));
    const file = join(project, '.ralph', '.rate_limit_state');
    const now = Date.now();
    const loops = ['loop-a', 'loop-b', 'loop-c'].map((id) => new SharedRate(file, id));
    // Six claims at once, two from each loop, for a budget of four calls.
    const claims = await Promise.all([...loops, ...loops].map((loop) => loop.reserve(now, 4)));
    expect(claims.filter((id) => id !== undefined)).toHaveLength(4);
    const calls = new SharedRate(file, 'reader').view({ calls: [] }).calls;
    expect(calls.map((c) => c.id).sort()).toEqual(claims.filter((id): id is string => id !== undefined).sort());
    // The call a claim stood for takes its place when it is recorded: counted once, with its tokens.
    const first = claims.findIndex((claim) => claim !== undefined);
    const granted = loops[first % loops.length] as SharedRate;
    const id = claims[first] as string;
    await granted.record(recordCallTokens({ calls: [{ at: now, tokens: 0, id }] }, 42), now);
    const after = new SharedRate(file, 'reader').view({ calls: [] }).calls;
    expect(after).toHaveLength(4);
    expect(after.find((c) => c.id === id)?.tokens).toBe(42);
    // No budget (0) never refuses.
    expect(await loops[0]?.reserve(now, 0)).toMatch(/^loop-a#/);
  });

  it('a loop waiting for the shared file’s lock keeps its event loop running, and writes once the lock is free', async () => {
    const project = tempDir('shared-rate-');
    mkdirSync(join(project, '.ralph'));
    const file = join(project, '.ralph', '.rate_limit_state');
    // Another loop holds the lock while it writes.
    const release = await lockfile.lock(file, { realpath: false, lockfilePath: `${file}.lock` });
    const a = new SharedRate(file, 'loop-a');
    const now = Date.now();
    let written = false;
    const writing = a.record(recordCallStart({ calls: [] }, now, a.nextCallId()), now).then(() => (written = true));
    // Timers and I/O callbacks still run while the write waits: the wait does not block the thread.
    let turns = 0;
    for (let i = 0; i < 20; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      turns += 1;
    }
    expect(turns).toBe(20);
    expect(written).toBe(false);
    await release();
    await writing;
    expect(new SharedRate(file, 'reader').view({ calls: [] }).calls).toEqual([{ at: now, tokens: 0, id: 'loop-a#1' }]);
  });

  it('commits what an interrupted item left, removes worktrees not running, keeps branches', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(project, ['>>alpha :: verify:"test -f alpha.txt"']);
    const slow = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' }, delayMs: 60_000 }]);
    const run = queueCli(['run', ...mockFlags(slow)], project);
    track(run.pid ?? 0);
    await waitFor(() => queueItems(project)[0]?.state === 'running' && loopStatus(project, '.ralph/worktrees/t1') !== undefined, 't1 running', 30_000);
    // Work in progress that no loop committed yet.
    writeFileSync(join(project, '.ralph', 'worktrees', 't1', 'draft.txt'), 'half done\n');
    run.kill('SIGINT');
    expect((await run).exitCode).toBe(130);

    const clean = await queueCli(['clean'], project);
    expect(clean.exitCode, String(clean.stderr)).toBe(0);
    expect(String(clean.stdout)).toBe('removed 1 worktree: t1');
    expect(existsSync(join(project, '.ralph', 'worktrees', 't1'))).toBe(false);
    expect(worktreeList(project)).toEqual([project]);
    expect(branches(project)).toEqual(['main', 'ralph/t1']);
    expect(git(project, 'show', 'ralph/t1:draft.txt')).toBe('half done\n');
    expect(String((await queueCli(['clean'], project)).stdout)).toBe('removed 0 worktrees');

    // The next run picks the item up again on its branch, with what was saved there.
    const fast = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' } }]);
    const again = await queueCli(['run', ...mockFlags(fast)], project);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(git(project, 'ls-tree', '-r', '--name-only', 'ralph/t1').trim().split('\n')).toEqual(['.gitignore', 'README.md', 'alpha.txt', 'draft.txt']);
  });
});

describe('--report FILE', () => {
  it('writes the run’s report when the loop ends', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' }, costUsd: 0.25 }]);
    const out = join(tempDir('report-'), 'report.json');
    const r = await ralph(['run', '>>alpha :: verify:"test -f alpha.txt"', ...mockFlags(script), '--report', out], project, cleanEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(report).toMatchObject({
      version: 1,
      exit_reason: 'project_complete',
      exit_code: 0,
      cost_usd: 0.25,
      cost_estimated: false,
      iterations: 1,
      backend: 'mock',
      branch: 'main',
      pr_url: null,
    });
    expect(Date.parse(String(report['ended_at']))).toBeGreaterThanOrEqual(Date.parse(String(report['started_at'])));
    // It is the shape docs/schemas publishes, field for field.
    const schema = publishedSchema('run-report.schema.json');
    expect(schemaProblems(schema, report)).toEqual([]);
    expect(Object.keys(report).sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
  });

  it('also when the run is refused before its loop, with the exit code it ends with', async () => {
    const project = tempDir('report-nogit-');
    const out = join(project, 'report.json');
    const r = await ralph(['run', 'fix it', '--backend', 'mock', '--report', out], project, cleanEnv());
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(report).toMatchObject({ exit_reason: 'usage_error', exit_code: 2, iterations: 0, branch: null });
    expect(schemaProblems(publishedSchema('run-report.schema.json'), report)).toEqual([]);
  });

  it.each([
    [['--status', '--report', 'r.json'], /--report goes with a loop run \(ralph or ralph run\), not --status\./],
    [['run', 'fix it', '--task-file', 'missing.md', '--backend', 'mock'], /--task-file missing\.md cannot be read: ENOENT/],
  ])('refuses %j', async (args, message) => {
    const project = queueProject();
    const r = await ralph(args, project, cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
