import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addItems, claimNext } from '../../../src/core/queue/queue-ops.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { readQueue, updateQueue } from '../../../src/state/queue-store.js';
import { isRunning, killTracked, track } from '../../helpers/processes.js';
import { ralph, cleanEnv, ROOT } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait-for.js';

const STORE = join(ROOT, 'dist', 'state', 'queue-store.js');
const OPS = join(ROOT, 'dist', 'core', 'queue', 'queue-ops.js');
const PATHS = join(ROOT, 'dist', 'state', 'paths.js');

afterEach(() => killTracked());

const COUNT = 60;

/**
 * A process that adds `count` items named `<prefix>-<i>` one change at a time, as fast as it can,
 * from the moment `go` exists. It writes `<go>.<prefix>.ready` once loaded: the test says go when
 * both are, so their changes overlap.
 */
function adder(project: string, prefix: string, count: number, go: string) {
  const script = `
    const { existsSync, writeFileSync } = await import('node:fs');
    const { updateQueue } = await import(${JSON.stringify(STORE)});
    const { addItems } = await import(${JSON.stringify(OPS)});
    const { ralphPaths } = await import(${JSON.stringify(PATHS)});
    const paths = ralphPaths(${JSON.stringify(project)});
    writeFileSync(${JSON.stringify(`${go}.${prefix}.ready`)}, '');
    while (!existsSync(${JSON.stringify(go)})) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 1; i <= ${count}; i++) {
      await updateQueue(paths, (doc) => {
        const id = '${prefix}-' + i;
        const change = addItems(doc, [{ id, source: 'task', title: id, spec: id, priority: 5, depends_on: [] }], new Date().toISOString());
        if (!change.ok) throw new Error('refused');
        return { doc: change.doc, value: undefined };
      });
    }`;
  return execa(process.execPath, ['--input-type=module', '-e', script], { cwd: project, reject: false });
}

describe('.ralph/queue.json under concurrent changes', () => {
  it('two processes adding at the same time lose no update', async () => {
    const project = tempDir('queue-race-');
    const go = join(tempDir('queue-race-go-'), 'go');
    const adders = [adder(project, 'a', COUNT, go), adder(project, 'b', COUNT, go)] as const;
    await waitFor(() => existsSync(`${go}.a.ready`) && existsSync(`${go}.b.ready`), 'both processes to be loaded');
    writeFileSync(go, '');
    const [a, b] = await Promise.all(adders);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    const ids = readQueue(ralphPaths(project)).items.map((item) => item.id);
    expect(ids).toHaveLength(2 * COUNT);
    expect(new Set(ids).size).toBe(2 * COUNT);
    expect(ids.filter((id) => id.startsWith('a-'))).toEqual(Array.from({ length: COUNT }, (_, i) => `a-${i + 1}`));
  });

  it('a run killed with -9 leaves its item running; the next change puts it back to pending', async () => {
    const project = tempDir('queue-kill-');
    const paths = ralphPaths(project);
    await updateQueue(paths, (doc) => {
      const change = addItems(
        doc,
        [
          { id: 't1', source: 'task', title: 't1', spec: 't1', priority: 5, depends_on: [] },
          { id: 't2', source: 'task', title: 't2', spec: 't2', priority: 5, depends_on: [] },
        ],
        new Date().toISOString(),
      );
      if (!change.ok) throw new Error('refused');
      return { doc: change.doc, value: undefined };
    });
    const claimer = execa(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { updateQueue, currentOwner } = await import(${JSON.stringify(STORE)});
         const { claimNext } = await import(${JSON.stringify(OPS)});
         const { ralphPaths } = await import(${JSON.stringify(PATHS)});
         await updateQueue(ralphPaths(${JSON.stringify(project)}), (doc) => {
           const change = claimNext(doc, currentOwner(), new Date().toISOString());
           return { doc: change.doc, value: undefined };
         });
         process.stdout.write('claimed\\n');
         setInterval(() => {}, 1000);`,
      ],
      { cwd: project, reject: false },
    );
    track(claimer.pid as number);
    await waitFor(() => readQueue(paths).items[0]?.state === 'running', 'the claim');
    const running = readQueue(paths).items[0];
    expect(running?.owner?.pid).toBe(claimer.pid);

    // Alive, its item is its own: another change leaves it running.
    const live = await ralph(['queue', 'status', '--json'], project);
    expect(JSON.parse(live.stdout)).toMatchObject({ counts: { running: 1, pending: 1 }, running: [{ id: 't1', interrupted: false }] });
    await updateQueue(paths, (doc) => ({ doc, value: undefined }));
    expect(readQueue(paths).items[0]?.state).toBe('running');

    process.kill(claimer.pid as number, 'SIGKILL');
    await claimer;
    expect(isRunning(claimer.pid as number)).toBe(false);
    const dead = await ralph(['queue', 'status', '--json'], project);
    expect(JSON.parse(dead.stdout)).toMatchObject({ running: [{ id: 't1', interrupted: true }] });

    let recovered: string[] = [];
    const next = await updateQueue(
      paths,
      (doc) => {
        const change = claimNext(doc, { pid: process.pid, host: running?.owner?.host ?? '' }, new Date().toISOString());
        if (!change.ok) throw new Error('refused');
        return { doc: change.doc, value: change.value.item?.id };
      },
      { onRecovered: (ids) => (recovered = ids) },
    );
    expect(recovered).toEqual(['t1']);
    // Back in its place in the order: the recovered item is taken again first.
    expect(next).toBe('t1');
  });
});

describe('a damaged queue file', () => {
  it('is refused by every command, left exactly as it was, with how to go on', async () => {
    const project = tempDir('queue-corrupt-');
    mkdirSync(join(project, '.ralph'));
    const file = join(project, '.ralph', 'queue.json');
    const damaged = '{"version": 1, "items": [{"id": "t1", "state": "pending"';
    writeFileSync(file, damaged);
    for (const args of [
      ['queue', 'list'],
      ['queue', 'status'],
      ['queue', 'add', 'one more task'],
      ['queue', 'clear', '--all'],
    ]) {
      const r = await ralph(args, project);
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/Error: \.ralph\/queue\.json cannot be read: not valid JSON .*It was left as it is\./);
      expect(r.stderr).toMatch(/mv \.ralph\/queue\.json \.ralph\/queue\.json\.bad/);
    }
    expect(readFileSync(file, 'utf8')).toBe(damaged);

    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        items: [{ id: 't1', source: 'task', title: 'x', spec: 'x', priority: 5, depends_on: [], state: 'finished', created_at: '' }],
      }),
    );
    const wrongShape = await ralph(['queue', 'list'], project);
    expect(wrongShape.stderr).toMatch(/cannot be read: items\[0\]\.state is not one of pending, running, completed, failed, skipped/);
  });

  it("reads the original Ralph's queue and saves it in this shape on the next change", async () => {
    const project = tempDir('queue-original-');
    mkdirSync(join(project, '.ralph'));
    const file = join(project, '.ralph', 'queue.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: '1.0',
        repository: 'octo/app',
        queue: [
          {
            source: 'github',
            id: 'github-12',
            issue_number: 12,
            title: 'Fix login',
            priority: 'P1',
            labels: ['P1'],
            dependencies: [],
            status: 'pending',
            added_at: '2026-01-01T00:00:00Z',
          },
        ],
      }),
    );
    const list = await ralph(['queue', 'list'], project);
    expect(list.stdout).toMatch(/gh-12\s+P1\s+pending\s+-\s+Fix login \(#12\)/);
    const add = await ralph(['queue', 'add', 'after the issue', '--after', 'gh-12'], project, cleanEnv());
    expect(add.stdout).toBe('added t1 (P5, after gh-12): after the issue');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number; items: { id: string }[] };
    expect(saved.version).toBe(1);
    expect(saved.items.map((i) => i.id)).toEqual(['gh-12', 't1']);
  });
});

describe('where the queue is written', () => {
  it('never through a .ralph that is a symbolic link', async () => {
    const project = tempDir('queue-link-');
    const elsewhere = tempDir('queue-elsewhere-');
    symlinkSync(elsewhere, join(project, '.ralph'));
    const r = await ralph(['queue', 'add', 'a task'], project);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/\.ralph is not a directory of this project \(a symbolic link or a file\); the queue is not written through it\./);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(project, '.ralph', 'queue.json'))).toBe(false);
  });
});
