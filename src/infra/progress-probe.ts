import type { ProgressFacts } from '../core/response-analyzer.js';
import { ExitCode, RalphError } from '../errors.js';
import type { ProcessRunner, ProgressProbe } from '../ports.js';
import { diffFingerprints, fingerprintTree, type Fingerprint } from './file-fingerprint.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseGitStatus } from '../core/git-status.js';
import { GitWorkspace, type GitInfo } from './git-workspace.js';

const LISTED_FILES = 50;

/**
 * The progress probe of a project: one `git status` per iteration in a git repository, a
 * size/mtime scan outside git. Ralph's own .ralph/ files never count.
 */
export async function createProgressProbe(projectDir: string, runner: ProcessRunner): Promise<ProgressProbe> {
  const ws = new GitWorkspace(projectDir, runner);
  const repo = await ws.repo();
  if (repo) return new GitProgressProbe(ws, repo);
  return new FileProgressProbe(projectDir);
}

interface GitBaseline {
  head: string | undefined;
  /** path (from the top level) → status code + size + mtime of what is on disk. */
  dirty: Map<string, string>;
}

/**
 * Progress in a git repository from one `git status` per iteration: every path
 * that is dirty or untracked, fingerprinted by its status code and the file's
 * size and mtime, plus the commits made (HEAD moved). Cheap enough for every
 * iteration; checkpoints (which need exact content) use tree snapshots instead.
 */
class GitProgressProbe implements ProgressProbe {
  readonly method = 'git' as const;
  private baseline: GitBaseline | undefined;

  constructor(
    private readonly ws: GitWorkspace,
    private readonly info: GitInfo,
  ) {}

  async begin(): Promise<void> {
    this.baseline ??= await this.read();
  }

  async measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>> {
    const now = await this.read();
    const before = this.baseline;
    this.baseline = now;
    if (!before) return { method: 'git', filesChanged: 0, changedFiles: [], committed: false };
    const changed = new Set<string>();
    for (const [path, stamp] of now.dirty) if (before.dirty.get(path) !== stamp) changed.add(path);
    for (const path of before.dirty.keys()) if (!now.dirty.has(path)) changed.add(path);
    const committed = before.head !== now.head;
    if (committed && before.head && now.head) {
      for (const path of await this.ws.changedPaths(before.head, now.head)) changed.add(path);
    }
    const ralphState = `${this.info.prefix}.ralph/`;
    const files = [...changed].filter((p) => !p.startsWith(ralphState)).sort();
    return { method: 'git', filesChanged: files.length, changedFiles: files.slice(0, LISTED_FILES), committed };
  }

  invalidate(): void {
    this.baseline = undefined;
  }

  private async read(): Promise<GitBaseline> {
    // --no-optional-locks: reading status must not rewrite the user's index. Ralph's own files
    // never count, so git neither lists nor walks them (logs pile up there when not ignored).
    // --no-ahead-behind: only HEAD's commit is read of the branch, so git does not walk the
    // history to count the commits between the branch and its upstream.
    const pathspec = await this.ws.pathspecWithoutRalphState();
    const result = await this.ws.git([
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '-z',
      '--branch',
      '--no-ahead-behind',
      '--untracked-files=all',
      '--',
      ...pathspec,
    ]);
    if (result.exitCode !== 0) {
      // Not a bug of Ralph's: git itself cannot read this repository (most often a required
      // clean filter that fails). Without `git status` no progress can be measured.
      throw new RalphError(
        `git status fails in this repository, so Ralph cannot tell what an iteration changed: ${result.stderr.trim()}`,
        ExitCode.RuntimeError,
        "Fix what git reports (for a failing filter: its command in 'git config --get-regexp filter'), check with 'git status', then run ralph again.",
      );
    }
    const status = parseGitStatus(result.stdout);
    const dirty = new Map<string, string>();
    for (const entry of status.entries) {
      let stamp = 'missing';
      try {
        const st = statSync(join(this.info.root, entry.path));
        stamp = `${st.size}:${st.mtimeMs}`;
      } catch {
        // Deleted: "missing" is its fingerprint.
      }
      dirty.set(entry.path, `${entry.code}:${stamp}`);
    }
    return { head: status.head, dirty };
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
