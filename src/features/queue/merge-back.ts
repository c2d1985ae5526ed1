import { gitFailure, type QueueGit } from './queue-git.js';

/**
 * `--merge`: once every loop has ended, the completed branches are merged into
 * the branch the run started from, one at a time, in the user's own tree —
 * the only moment `ralph queue run` touches it, and only when it is on that
 * branch with nothing uncommitted. A conflict is aborted on the spot
 * (`git merge --abort`), so the tree is never left half merged; that branch
 * stays as it is for the user to merge by hand.
 */
export interface MergeRequest {
  id: string;
  branch: string;
  title: string;
}

export interface MergeReport {
  merged: string[];
  /** Branches left unmerged, each with why. */
  unmerged: { id: string; branch: string; why: string }[];
  /** Why nothing was merged at all, when that is the case. */
  refused?: string;
}

export async function mergeBack(git: QueueGit, project: string, base: string | undefined, requests: readonly MergeRequest[]): Promise<MergeReport> {
  const report: MergeReport = { merged: [], unmerged: [] };
  if (requests.length === 0) return report;
  const keepAll = (why: string): MergeReport => ({ ...report, unmerged: requests.map((r) => ({ ...r, why })), refused: why });
  if (base === undefined) return keepAll('the run started on a detached HEAD, so there is no branch to merge into');
  const head = await git.run(['symbolic-ref', '--short', '-q', 'HEAD'], project);
  if (head.stdout.trim() !== base) return keepAll(`the work tree is no longer on ${base}`);
  const dirty = await git.run(['status', '--porcelain', '--untracked-files=no'], project);
  if (dirty.exitCode !== 0 || dirty.stdout.trim() !== '') return keepAll(`the work tree has uncommitted changes; commit or stash them, then merge by hand`);
  for (const request of requests) {
    const merged = await git.run(['merge', '--no-ff', '--no-edit', '-q', '-m', `Merge ${request.branch}: ${request.title}`, request.branch], project);
    if (merged.exitCode === 0) {
      report.merged.push(request.id);
      continue;
    }
    // Whatever stopped the merge, the tree goes back to how it was before it.
    const inMerge = await git.run(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], project);
    if (inMerge.exitCode === 0) await git.run(['merge', '--abort'], project);
    const conflict = /conflict/i.test(merged.stdout + merged.stderr);
    report.unmerged.push({ id: request.id, branch: request.branch, why: conflict ? `it conflicts with ${base}` : gitFailure(merged) });
  }
  return report;
}
