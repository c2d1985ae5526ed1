import type { ProgressFacts } from '../core/response-analyzer.js';
import type { ProcessRunner } from '../ports.js';
import { diffFingerprints, fingerprintTree, type Fingerprint } from './file-fingerprint.js';
import { GitWorkspace } from './git-workspace.js';

const LISTED_FILES = 50;

/**
 * Measures what changed in the project during an iteration: every file
 * committed, staged, unstaged or untracked (git tree snapshots), or a size/mtime
 * scan outside git. Ralph's own .ralph/ files never count (U§15.9).
 */
export interface ProgressProbe {
  readonly method: 'git' | 'files';
  /** Records the starting point of an iteration (reuses the last measurement when still valid). */
  begin(): Promise<void>;
  /** Changes since begin(); the result becomes the next iteration's starting point. */
  measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>>;
  /** Forget the cached baseline (after a rollback or restore changed the tree). */
  invalidate(): void;
}

export async function createProgressProbe(projectDir: string, runner: ProcessRunner): Promise<ProgressProbe> {
  const ws = new GitWorkspace(projectDir, runner);
  const repo = await ws.repo();
  if (repo) return new GitProgressProbe(ws);
  return new FileProgressProbe(projectDir);
}

class GitProgressProbe implements ProgressProbe {
  readonly method = 'git' as const;
  private baseline: { tree: string; head: string | undefined } | undefined;

  constructor(private readonly ws: GitWorkspace) {}

  async begin(): Promise<void> {
    if (this.baseline) return;
    this.baseline = { tree: await this.ws.snapshotTree(), head: await this.ws.head() };
  }

  async measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>> {
    const [tree, head] = [await this.ws.snapshotTree(), await this.ws.head()];
    const before = this.baseline;
    this.baseline = { tree, head };
    if (!before) return { method: 'git', filesChanged: 0, changedFiles: [], committed: false };
    const changed = before.tree === tree ? [] : await this.ws.changedPaths(before.tree, tree);
    return { method: 'git', filesChanged: changed.length, changedFiles: changed.slice(0, LISTED_FILES), committed: before.head !== head };
  }

  invalidate(): void {
    this.baseline = undefined;
  }
}

class FileProgressProbe implements ProgressProbe {
  readonly method = 'files' as const;
  private baseline: Fingerprint | undefined;

  constructor(private readonly root: string) {}

  async begin(): Promise<void> {
    this.baseline ??= fingerprintTree(this.root);
  }

  async measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>> {
    const now = fingerprintTree(this.root);
    const before = this.baseline;
    this.baseline = now;
    const changed = before ? diffFingerprints(before, now) : [];
    return { method: 'files', filesChanged: changed.length, changedFiles: changed.slice(0, LISTED_FILES), committed: false };
  }

  invalidate(): void {
    this.baseline = undefined;
  }
}
