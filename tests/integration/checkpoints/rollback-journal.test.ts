import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { createCheckpoint, prepareProjectRepository, rollbackToCheckpoint, type Checkpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { fingerprint } from '../../helpers/repo-fingerprint.js';

/**
 * A rollback cut short — by an exception at a chosen step, or by a real
 * kill -9 of the process doing it — leaves its journal; the next start
 * finishes it, says so, and the repository is exactly the checkpoint's state.
 */

const JOURNAL = ['.git', 'ralph', 'rollback-journal.json'];
const DIST = resolve(__dirname, '../../../dist/checkpoints/git-checkpoints.js');

function workspace(dir: string): GitWorkspace {
  return new GitWorkspace(dir, createProcessRunner());
}

function manyFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) files[`src/d${i % 20}/f${i}.txt`] = `original ${i}\n`;
  return files;
}

function agentEdits(dir: string, count: number): void {
  for (let i = 0; i < count; i += 1) writeFileSync(join(dir, `src/d${i % 20}/f${i}.txt`), `agent ${i}\n`);
  for (let i = 0; i < count; i += 7) rmSync(join(dir, `src/d${i % 20}/f${i}.txt`));
  for (let i = 0; i < 50; i += 1) writeFileSync(join(dir, `src/d0/agent${i}.txt`), 'agent file\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'agent commit');
}

async function checkpoint(dir: string): Promise<Checkpoint> {
  const made = await createCheckpoint(workspace(dir), { loop: 1, now: Date.now() });
  if (!made.ok) throw new Error(made.reason);
  return made.checkpoint;
}

describe('rollback journal', () => {
  for (const step of ['journal', 'ignore-rules', 'deleted', 'written', 'files', 'index', 'refs']) {
    it(`a rollback stopped after step "${step}" is finished at the next start, with a message`, async () => {
      const dir = gitRepo(manyFiles(60));
      writeFileSync(join(dir, 'untracked.txt'), 'user notes\n');
      const before = fingerprint(dir);
      const cp = await checkpoint(dir);
      agentEdits(dir, 60);
      const result = await rollbackToCheckpoint(workspace(dir), cp, {
        attemptLabel: 'loop 1',
        onStep: (s) => {
          if (s === step) throw new Error(`simulated crash after ${s}`);
        },
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.changed).toBe(true);
      expect(result.reason).toContain('finished at the next start');
      expect(existsSync(join(dir, ...JOURNAL))).toBe(true);

      const messages: string[] = [];
      await prepareProjectRepository(dir, (m) => messages.push(m));
      expect(messages.join('\n')).toMatch(/rollback to checkpoint cp1-\S+ was interrupted .*Ralph finished it now/);
      expect(existsSync(join(dir, ...JOURNAL))).toBe(false);
      expect(fingerprint(dir)).toEqual(before);
    });
  }

  it('after a real kill -9 in the middle of a rollback, the next start completes it exactly', async () => {
    const delays = [0, 10];
    let interrupted = 0;
    for (const delay of delays) {
      const dir = gitRepo(manyFiles(300));
      const before = fingerprint(dir);
      const cp = await checkpoint(dir);
      agentEdits(dir, 300);
      const script = `
        const { createCheckpoint, rollbackToCheckpoint } = await import(${JSON.stringify(DIST)});
        const { GitWorkspace } = await import(${JSON.stringify(DIST.replace('checkpoints/git-checkpoints.js', 'infra/git-workspace.js'))});
        const cp = JSON.parse(process.argv[1]);
        const ws = new GitWorkspace(process.cwd(), null);
        const r = await rollbackToCheckpoint(ws, cp, { attemptLabel: 'killed' });
        process.stdout.write(JSON.stringify({ ok: r.ok }));
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cp)], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise<void>((r) => child.on('exit', () => r()));
      // Wait for the journal (the rollback has started changing things), then kill it without warning.
      for (let i = 0; i < 2_000 && !existsSync(join(dir, ...JOURNAL)); i += 1) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await exited;
      if (existsSync(join(dir, ...JOURNAL))) interrupted += 1;
      const messages: string[] = [];
      await prepareProjectRepository(dir, (m) => messages.push(m));
      expect(fingerprint(dir)).toEqual(before);
      expect(existsSync(join(dir, ...JOURNAL))).toBe(false);
      expect(readFileSync(join(dir, 'src/d0/f0.txt'), 'utf8')).toBe('original 0\n');
    }
    // At least one kill must have hit a rollback in progress, or the test proved nothing.
    expect(interrupted).toBeGreaterThan(0);
  }, 120_000);
});
