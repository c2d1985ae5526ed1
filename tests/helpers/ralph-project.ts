import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { git, initTestRepo, writeFiles } from './git-repo.js';
import { tempDir } from './temp-dir.js';

export interface ProjectOptions {
  git?: boolean;
  prompt?: string;
  fixPlan?: string;
  ralphrc?: string;
  files?: Record<string, string>;
}

/** Ignores Ralph's state so only the agent's work shows up in git. */
export const STATE_GITIGNORE = '.ralph/*\n!.ralph/PROMPT.md\n!.ralph/fix_plan.md\n!.ralph/AGENT.md\n!.ralph/specs/\n';

/** A minimal Ralph project (the layout ralph-setup creates) in a temp dir. */
export function ralphProject(options: ProjectOptions = {}): string {
  const dir = tempDir('ralph-proj-');
  writeFiles(dir, {
    '.ralph/PROMPT.md': options.prompt ?? '# Task\nWork through .ralph/fix_plan.md. End with a RALPH_STATUS block.\n',
    '.ralph/fix_plan.md': options.fixPlan ?? '# Fix Plan\n\n## High Priority\n- [ ] first task\n- [ ] second task\n',
    '.ralph/AGENT.md': '# Agent\nRun tests with npm test.\n',
    '.ralphrc': options.ralphrc ?? '# test project\n',
    '.gitignore': STATE_GITIGNORE,
    ...(options.files ?? {}),
  });
  if (options.git !== false) {
    initTestRepo(dir);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

export function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
}

export function writeMockScript(dir: string, responses: unknown[]): string {
  const path = join(dir, '.ralph', 'mock_responses.json');
  writeFiles(dir, { '.ralph/mock_responses.json': JSON.stringify({ responses }, null, 2) });
  return path;
}
