import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { cleanEnv, runCli, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * What the queue-run tests share: a git project whose agent is the mock
 * backend with one scripted answer per item (picked by the task's name), and
 * `ralph queue …` through the built CLI.
 */
export interface ItemScript {
  /** A word of the task's text that picks this answer. */
  trigger: string;
  files: Record<string, string | null>;
  delayMs?: number;
  costUsd?: number;
  /** The agent says it is done (default) or keeps going. */
  done?: boolean;
}

export function doneOutput(done: boolean): string {
  return `Worked.\n${statusBlock({
    STATUS: done ? 'COMPLETE' : 'IN_PROGRESS',
    TASKS_COMPLETED_THIS_LOOP: '1',
    FILES_MODIFIED: '1',
    TESTS_STATUS: 'PASSING',
    WORK_TYPE: 'IMPLEMENTATION',
    EXIT_SIGNAL: done ? 'true' : 'false',
    RECOMMENDATION: done ? 'done' : 'go on',
  })}`;
}

/** A mock script outside the project (the worktrees do not carry it), `repeat` answers per item. */
export function writeItemScript(items: readonly ItemScript[], repeat = 1): string {
  const responses = items.flatMap((item) =>
    Array.from({ length: repeat }, () => ({
      output: doneOutput(item.done ?? true),
      trigger_pattern: item.trigger,
      files: item.files,
      delay_ms: item.delayMs ?? 0,
      cost_usd: item.costUsd ?? 0.01,
    })),
  );
  const file = join(tempDir('queue-script-'), 'mock.json');
  writeFileSync(file, JSON.stringify({ responses }, null, 2));
  return file;
}

/** A project whose .gitignore says nothing of .ralph/: the worktrees must still stay out of git status. */
export function queueProject(files: Record<string, string> = { 'README.md': '# project\n' }): string {
  return gitRepo(files, tempDir('queue-run-'));
}

export function queueCli(args: readonly string[], cwd: string, env: Record<string, string> = cleanEnv(), timeoutMs = 60_000): ResultPromise {
  return runCli('ralph', ['queue', ...args], cwd, env, timeoutMs);
}

export async function addTasks(project: string, lines: readonly string[], env?: Record<string, string>): Promise<void> {
  for (const line of lines) {
    const added = await queueCli(['add', line], project, env);
    if (added.exitCode !== 0) throw new Error(`queue add failed: ${String(added.stderr)}`);
  }
}

export interface StoredRunItem {
  id: string;
  state: string;
  branch?: string;
  worktree?: string;
  reason?: string;
  owner?: { pid: number };
  result?: { exit_reason?: string; exit_code?: number; cost?: number; iterations?: number; branch?: string; pr_url?: string; error?: string };
}

export function queueItems(project: string): StoredRunItem[] {
  return (JSON.parse(readFileSync(join(project, '.ralph', 'queue.json'), 'utf8')) as { items: StoredRunItem[] }).items;
}

export function branches(project: string): string[] {
  return git(project, 'branch', '--format=%(refname:short)').trim().split('\n').sort();
}

export function filesOnBranch(project: string, branch: string): string[] {
  return git(project, 'ls-tree', '-r', '--name-only', branch).trim().split('\n').sort();
}

export function worktreeList(project: string): string[] {
  return execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: project, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}

/** Loop flags for every item: the mock agent, no pauses, few iterations. */
export function mockFlags(script: string, maxLoops = 3): string[] {
  return ['--backend', 'mock', '--mock-script', script, '--pause', '0', '--max-loops', String(maxLoops)];
}

/** A project whose origin is a local bare repository, for `--pr`. */
export function projectWithRemote(files: Record<string, string> = {}): { project: string; remote: string } {
  const project = queueProject({ 'README.md': '# app\n', '.gitignore': '.ralph/\n', ...files });
  const remote = join(tempDir('queue-remote-'), 'app.git');
  git(project, 'init', '-q', '--bare', remote);
  git(project, 'remote', 'add', 'origin', remote);
  git(project, 'push', '-q', 'origin', 'main');
  return { project, remote };
}

/** The environment of a run against the fake GitHub API: its token and address, and no gh on PATH. */
export function githubEnv(url: string, token: string): Record<string, string> {
  return { ...cleanEnv({ GITHUB_TOKEN: token, GITHUB_API_URL: url }), PATH: `${join(process.execPath, '..')}:/usr/bin:/bin` };
}
