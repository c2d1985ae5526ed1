import { describe, expect, it } from 'vitest';
import { ExitGuard } from '../../../src/cli/commands/exit-guard.js';
import { createStopSignalHandler } from '../../../src/cli/commands/stop-signals.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve = (): void => undefined;
  let reject = (_e: Error): void => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup() {
  const abort = new AbortController();
  const guard = new ExitGuard();
  const written: string[] = [];
  const exits: number[] = [];
  const handle = createStopSignalHandler({ abort, guard, write: (t) => written.push(t), exit: (c) => exits.push(c) });
  return { abort, guard, written, exits, handle };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('Ctrl+C while the loop runs', () => {
  it('the first asks the loop to stop; the second exits at once when nothing must be finished', () => {
    const t = setup();
    t.handle('SIGINT');
    expect(t.abort.signal.aborted).toBe(true);
    expect(t.exits).toEqual([]);
    t.handle('SIGINT');
    expect(t.exits).toEqual([130]);
  });

  it('a second (and third) Ctrl+C during a rollback waits for the rollback to finish, then exits', async () => {
    const t = setup();
    const step = deferred();
    const rollback = t.guard.protect('rollback', () => step.promise);
    t.handle('SIGINT');
    t.handle('SIGINT');
    t.handle('SIGINT');
    await settle();
    expect(t.exits).toEqual([]);
    expect(t.written.join('')).toContain('Finishing the rollback in progress');
    step.resolve();
    await rollback;
    await settle();
    expect(t.exits).toEqual([130]);
  });

  it('a rollback that fails still releases the exit', async () => {
    const t = setup();
    const step = deferred();
    const rollback = t.guard.protect('rollback', () => step.promise).catch(() => 'failed');
    t.handle('SIGINT');
    t.handle('SIGINT');
    step.reject(new Error('git failed'));
    expect(await rollback).toBe('failed');
    await settle();
    expect(t.exits).toEqual([130]);
  });

  it('a second SIGTERM does not force an exit', () => {
    const t = setup();
    t.handle('SIGTERM');
    t.handle('SIGTERM');
    expect(t.exits).toEqual([]);
    expect(t.abort.signal.aborted).toBe(true);
  });
});
