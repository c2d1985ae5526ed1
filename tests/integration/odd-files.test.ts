// Something other than a regular file where Ralph keeps one (a named pipe, a socket, a link, a
// directory): every reader refuses it at once and says which file it is, instead of waiting on a
// pipe for ever. Real FIFOs (mkfifo) and a real socket; the commands are the built CLI.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OddFileError, readRegularFile, readRegularTail } from '../../src/state/regular-file.js';
import { appendToFile, closeAppendFile } from '../../src/state/append-files.js';
import { readDocument } from '../../src/state/document-store.js';
import { PROGRESS } from '../../src/state/documents/progress.js';
import { writeJsonDocument } from '../../src/state/document-writes.js';
import { ralphPaths } from '../../src/state/paths.js';
import { startDashboard } from '../helpers/dashboard-browser.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { ROOT, cleanEnv, readJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  expect(made.status, String(made.stderr)).toBe(0);
}

describe('reading a file of Ralph that is not a regular file', () => {
  it.each([
    ['a named pipe (FIFO)', (path: string) => mkfifo(path), 'is a named pipe (FIFO), not a regular file'],
    ['a directory', (path: string) => mkdirSync(path), 'is a directory, not a regular file'],
    ['a symbolic link (to a regular file)', (path: string) => symlinkSync(join(path, '..', 'real.json'), path), 'is a symbolic link, not a regular file'],
  ])('%s: refused at once, naming the file', (_name, plant, reason) => {
    const dir = tempDir('ralph-odd-');
    writeFileSync(join(dir, 'real.json'), '{}');
    const path = join(dir, 'status.json');
    plant(path);
    for (const read of [() => readRegularFile(path, 'utf8'), () => readRegularTail(path, 100)]) {
      let error: unknown;
      try {
        read();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(OddFileError);
      expect((error as OddFileError).message).toBe(`${path} ${reason}.`);
      expect((error as OddFileError).hint).toBe('Ralph reads and writes only regular files there. Remove status.json; Ralph writes it again when it needs it.');
    }
  });

  it('a socket: refused at once', async () => {
    const dir = tempDir('ralph-odd-');
    const path = join(dir, 'progress.json');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    expect(() => readRegularFile(path)).toThrow(/progress\.json is a (socket|named pipe \(FIFO\) or a socket), not a regular file\./);
  });

  it('a regular file reads whole, and its end alone', () => {
    const dir = tempDir('ralph-odd-');
    const path = join(dir, 'metrics.jsonl');
    writeFileSync(path, 'one\ntwo\nthree\n');
    expect(readRegularFile(path, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(readRegularTail(path, 6)).toEqual({ bytes: Buffer.from('three\n'), size: 14 });
  });

  it("the documents' reader refuses a pipe; their writer replaces it; the log appender refuses one instead of waiting for a reader", () => {
    const paths = ralphPaths(ralphProject());
    mkfifo(paths.progress);
    expect(() => readDocument(paths, PROGRESS)).toThrow(OddFileError);
    writeJsonDocument(paths.progress, { status: 'idle' });
    expect(readDocument(paths, PROGRESS)).toMatchObject({ kind: 'ok' });

    mkdirSync(join(paths.dir, 'logs'), { recursive: true });
    mkfifo(paths.ralphLog);
    onTestFinished(() => closeAppendFile(paths.ralphLog));
    expect(() => appendToFile(paths.ralphLog, 'a line\n')).toThrow(/ralph\.log is a named pipe \(FIFO\) or a socket, not a regular file\./);
  });
});

describe('a named pipe at .ralph/progress.json and .ralph/status.json', () => {
  it('ralph-monitor --once still prints its frame, and says what is wrong with each file', () => {
    const dir = ralphProject();
    mkfifo(join(dir, '.ralph', 'status.json'));
    mkfifo(join(dir, '.ralph', 'progress.json'));
    // A pipe opened the old way blocks for ever: the time limit ends such a run, with SIGKILL (its own handlers never run then).
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'ralph-monitor.js'), '--once'], {
      cwd: dir,
      env: { ...cleanEnv(), NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 20_000,
      killSignal: 'SIGKILL',
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('RALPH MONITOR');
    expect(r.stdout).toContain('Status file is corrupt: it is a named pipe (FIFO), not a regular file; remove it');
  });

  it('the dashboard still answers, names both files, and shows the loop again once they are real files', async () => {
    const dir = ralphProject();
    const status = join(dir, '.ralph', 'status.json');
    const progress = join(dir, '.ralph', 'progress.json');
    mkfifo(status);
    mkfifo(progress);
    mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
    mkfifo(join(dir, '.ralph', 'logs', 'metrics.jsonl'));
    const dashboard = await startDashboard(dir);
    const state = async (): Promise<{ loops: Array<{ problems: string[]; state: { loopCount: number } }> }> => {
      const res = await fetch(`${dashboard.base}/api/state`, { headers: { 'x-ralph-token': dashboard.token }, signal: AbortSignal.timeout(15_000) });
      expect(res.status).toBe(200);
      return (await res.json()) as { loops: Array<{ problems: string[]; state: { loopCount: number } }> };
    };
    const first = await state();
    expect(first.loops[0]?.problems).toEqual([
      'status.json: it is a named pipe (FIFO), not a regular file; remove it',
      'progress.json: it is a named pipe (FIFO), not a regular file; remove it',
      'logs/metrics.jsonl: it is a named pipe (FIFO), not a regular file; remove it',
    ]);
    // Asked again (the stream reads every second): it still answers.
    expect((await state()).loops[0]?.problems).toHaveLength(3);
    rmSync(status);
    rmSync(progress);
    rmSync(join(dir, '.ralph', 'logs', 'metrics.jsonl'));
    writeFileSync(status, JSON.stringify({ loop_count: 4, status: 'running' }));
    const after = await state();
    expect(after.loops[0]?.problems).toEqual([]);
    expect(after.loops[0]?.state.loopCount).toBe(4);
    expect(await dashboard.stop()).toBe(130);
  });
});

describe('a loop started with named pipes in place of its files', () => {
  /** The built `ralph`, ended with SIGKILL after the time limit: a process stuck on a pipe never runs its own handlers. */
  const loop = (dir: string) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'ralph.js'), '--backend', 'mock', '--pause', '0'], {
      cwd: dir,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });

  it('pipes at status.json and progress.json: the loop runs to its end and puts its own files there', () => {
    const dir = ralphProject();
    const done = `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
    writeMockScript(dir, [{ output: done, files: { 'a.txt': '1' } }, { output: done }]);
    for (const name of ['status.json', 'progress.json']) mkfifo(join(dir, '.ralph', name));
    const run = loop(dir);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete' });
    expect(lstatSync(join(dir, '.ralph', 'progress.json')).isFile()).toBe(true);
  });

  it('a pipe at a log it appends to: the loop stops with an error naming the file, instead of waiting', () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`, files: { 'a.txt': '1' } }]);
    mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
    mkfifo(join(dir, '.ralph', 'logs', 'metrics.jsonl'));
    const run = loop(dir);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${join(dir, '.ralph', 'logs', 'metrics.jsonl')} is a named pipe (FIFO) or a socket, not a regular file.`);
    expect(run.stderr).toContain('Remove metrics.jsonl; Ralph writes it again when it needs it.');
  });
});
