import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp-dir.js';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/**
 * `git init` for a test: branch main, a local identity, no signing (a
 * developer's global commit.gpgsign must not make tests fail or prompt), no
 * background maintenance (gc.auto 0).
 */
export function initTestRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ralph Test');
  git(dir, 'config', 'user.email', 'ralph-test@example.invalid');
  git(dir, 'config', 'gc.auto', '0');
  git(dir, 'config', 'commit.gpgsign', 'false');
  git(dir, 'config', 'tag.gpgsign', 'false');
}

/** A real git repository in a temp dir (see initTestRepo) with one commit holding `files`. */
export function gitRepo(files: Record<string, string> = { 'README.md': '# test\n' }, dir = tempDir('ralph-git-')): string {
  initTestRepo(dir);
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}
