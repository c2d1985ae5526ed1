// `import { runLoop } from 'ralph-ts'` in-process: the command's loop, driven by a program —
// its events, its AbortSignal (which ends the agent and what it started), its errors — and
// never a signal handler, an exit or a line on the terminal unless asked.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runLoop, RalphError, UsageError, type LoopEvent } from '../../src/library/index.js';
import { killTracked, pidFromFile, survivors, track } from '../helpers/processes.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, fakeClaude, readJson, readJsonLines, resultJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

afterEach(() => killTracked());

const working = (n: number): { output: string; files: Record<string, string> } => ({
  output: `Step ${n}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
  files: { [`src/step-${n}.txt`]: String(n) },
});

describe('runLoop on the mock backend', () => {
  it('an AbortSignal stops the call under way and the run resolves interrupted, with no handler, exit or output of its own', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ ...working(1), delay_ms: 600_000 }]);
    const stderr = vi.spyOn(process.stderr, 'write');
    const stdout = vi.spyOn(process.stdout, 'write');
    const exit = vi.spyOn(process, 'exit');
    const sigint = process.listenerCount('SIGINT');
    const sigterm = process.listenerCount('SIGTERM');
    const controller = new AbortController();
    const events: LoopEvent[] = [];
    let handlersDuringRun = -1;
    const result = await runLoop({
      cwd: dir,
      backend: 'mock',
      env: cleanEnv(),
      limits: { pauseSeconds: 0, maxLoops: 3 },
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'call.start') {
          handlersDuringRun = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
          controller.abort();
        }
      },
    });
    expect(result).toEqual({ reason: 'interrupted', exitCode: 130, iterations: 1, message: 'interrupted' });
    expect(handlersDuringRun).toBe(sigint + sigterm);
    expect(process.listenerCount('SIGINT')).toBe(sigint);
    expect(process.listenerCount('SIGTERM')).toBe(sigterm);
    expect(exit).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    expect(stdout).not.toHaveBeenCalled();
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('loop.start');
    expect(types.at(-1)).toBe('loop.exit');
    expect(events.find((e) => e.type === 'loop.stop')).toMatchObject({ reason: 'interrupted', signal: 'AbortSignal' });
    // The files watchers read say the same as the result.
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'interrupted', exit_code: 130 });
  });

  it('runs to the end of its limits, its events those session.jsonl records, its terminal lines only where asked', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [working(1), working(2)]);
    const lines: string[] = [];
    const events: LoopEvent[] = [];
    const result = await runLoop({
      cwd: dir,
      backend: 'mock',
      env: cleanEnv(),
      limits: { pauseSeconds: 0, maxLoops: 2 },
      onEvent: (event) => events.push(event),
      output: (text) => lines.push(text),
    });
    expect(result).toMatchObject({ reason: 'max_loops', exitCode: 7, iterations: 2 });
    expect(events.filter((e) => e.type === 'iteration.end')).toHaveLength(2);
    // What session.jsonl recorded is what onEvent heard, in the same order.
    const recorded = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).map((line) => line['event']);
    const heard = events.map((e) => e.type);
    expect(recorded.length).toBeGreaterThan(5);
    let at = 0;
    for (const name of recorded) {
      at = heard.indexOf(name as LoopEvent['type'], at) + 1;
      expect(at, `${String(name)} was recorded but not heard in order`).toBeGreaterThan(0);
    }
    expect(lines.join('')).toContain('Exit reason: max_loops');
  });

  it("hands out events and terminal lines with the environment's secret values redacted", async () => {
    const secret = 'ghp_LIBRARYsecret0000000000000000000042';
    const dir = ralphProject();
    writeMockScript(dir, [{ ...working(1), output: `Used ${secret} to push.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}` }]);
    const events: LoopEvent[] = [];
    const lines: string[] = [];
    const result = await runLoop({
      cwd: dir,
      backend: 'mock',
      env: cleanEnv({ GITHUB_TOKEN: secret }),
      limits: { pauseSeconds: 0, maxLoops: 1 },
      settings: { live: true },
      onEvent: (event) => events.push(event),
      output: (text) => lines.push(text),
    });
    expect(result.reason).toBe('max_loops');
    const said = JSON.stringify(events);
    expect(said).toContain('to push');
    expect(said).not.toContain(secret);
    expect(lines.join('')).toContain('to push');
    expect(lines.join('')).not.toContain(secret);
  });

  it('two loops run at once in two folders; a second loop in a folder whose loop runs is refused by its lock', async () => {
    const [a, b] = [ralphProject(), ralphProject()];
    for (const dir of [a, b]) writeMockScript(dir, [{ ...working(1), delay_ms: 600_000 }]);
    const stop = new AbortController();
    const started = new Set<string>();
    const runs: Array<Promise<unknown>> = [];
    const allStarted = new Promise<void>((resolve) => {
      const run = (dir: string) =>
        runLoop({
          cwd: dir,
          backend: 'mock',
          env: cleanEnv(),
          limits: { pauseSeconds: 0 },
          signal: stop.signal,
          onEvent: (event) => {
            if (event.type !== 'call.start') return;
            started.add(dir);
            if (started.size === 2) resolve();
          },
        });
      runs.push(run(a), run(b));
    });
    await allStarted;
    await expect(runLoop({ cwd: a, backend: 'mock', env: cleanEnv() })).rejects.toBeInstanceOf(RalphError);
    stop.abort();
    expect(await Promise.all(runs)).toEqual([
      { reason: 'interrupted', exitCode: 130, iterations: 1, message: 'interrupted' },
      { reason: 'interrupted', exitCode: 130, iterations: 1, message: 'interrupted' },
    ]);
  });

  it('an onEvent that throws stops the run, saves its state, and runLoop rejects with that error', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [working(1), working(2), working(3)]);
    const seen: string[] = [];
    const failing = runLoop({
      cwd: dir,
      backend: 'mock',
      env: cleanEnv(),
      limits: { pauseSeconds: 0, maxLoops: 3 },
      onEvent: (event) => {
        seen.push(event.type);
        if (event.type === 'iteration.end') throw new Error('the listener broke');
      },
    });
    await expect(failing).rejects.toThrow('the listener broke');
    // Told once: the listener hears nothing after it threw.
    expect(seen.at(-1)).toBe('iteration.end');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'interrupted', loop_count: 1 });
  });

  it('task mode with a verify command ends complete when the verify command passes', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`, files: { 'done.txt': 'yes' } }]);
    const result = await runLoop({
      cwd: dir,
      task: 'make done.txt',
      backend: 'mock',
      verify: 'test -f done.txt',
      env: cleanEnv(),
      limits: { pauseSeconds: 0 },
    });
    expect(result.exitCode).toBe(0);
  });

  it('the AbortSignal ends the agent process and the SIGTERM-ignoring child it started in a session of its own', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], {
      default: {
        stdout: resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`),
        sleep_ms: 120_000,
        ignore_term: true,
        shell: `setsid sh -c 'trap "" TERM; echo $$ > "$FAKE_CLAUDE_STATE/child.pid"; exec sleep 300' >/dev/null 2>&1 &`,
      },
    });
    const controller = new AbortController();
    const run = runLoop({ cwd: dir, env: fake.env, limits: { maxLoops: 1, pauseSeconds: 0 }, signal: controller.signal });
    const child = await pidFromFile(join(fake.stateDir, 'child.pid'));
    const agent = track(fake.calls()[0]?.pid as number);
    controller.abort();
    expect(await run).toMatchObject({ reason: 'interrupted', exitCode: 130 });
    expect(await survivors([agent, child])).toEqual([]);
  });
});

describe('runLoop errors', () => {
  it('throws a UsageError (exit 2) for an unknown setting, a bad limit and a task with a prompt', async () => {
    const dir = ralphProject();
    await expect(runLoop({ cwd: dir, settings: { noSuchKey: 1 } })).rejects.toThrow(/unknown setting settings\.noSuchKey/);
    await expect(runLoop({ cwd: dir, limits: { maxLoops: -1 } })).rejects.toMatchObject({ name: 'UsageError', exitCode: 2 });
    await expect(runLoop({ cwd: dir, limits: { maxLoops: Number.NaN } })).rejects.toThrow(/limits\.maxLoops must be a finite number/);
    await expect(runLoop({ cwd: dir, limits: { nope: 1 } as never })).rejects.toThrow(/unknown limit limits\.nope/);
    await expect(runLoop({ cwd: dir, task: 'x', prompt: 'p.md' })).rejects.toBeInstanceOf(UsageError);
  });

  it('throws a RalphError outside a Ralph project, and for an AbortSignal aborted before the start', async () => {
    const empty = tempDir('ralph-not-a-project-');
    const outside = runLoop({ cwd: empty, backend: 'mock', env: cleanEnv() });
    await expect(outside).rejects.toBeInstanceOf(RalphError);
    await expect(runLoop({ cwd: ralphProject(), signal: AbortSignal.abort() })).rejects.toThrow(/already aborted/);
  });
});
