import { lstatSync } from 'node:fs';
import { join } from 'node:path';
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

/** How many of the paths in the way are named in the message; the rest are counted. */
const SHOWN_PATHS = 5;

/**
 * Paths the branch would write into the user's tree over a file git does not
 * track there: an ignored file (git replaces those without a word — a
 * `local.conf`, an `.env`) or an untracked one. The merge writes every path
 * the branch has and HEAD does not; any of them (or a folder on its way that
 * is not a real folder) already present in the tree is the user's own.
 */
async function userFilesInTheWay(git: QueueGit, project: string, branch: string): Promise<string[] | { error: string }> {
  const added = await git.run(['diff', '--name-only', '-z', '--no-renames', '--diff-filter=A', 'HEAD', branch, '--'], project);
  if (added.exitCode !== 0) return { error: gitFailure(added) };
  const inTheWay = new Set<string>();
  for (const path of added.stdout.split('\0').filter((p) => p !== '')) {
    const parts = path.split('/');
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const prefix = parts.slice(0, depth).join('/');
      const st = lstatSync(join(project, prefix), { throwIfNoEntry: false });
      if (!st) break;
      const last = depth === parts.length;
      if (last || st.isSymbolicLink() || !st.isDirectory()) {
        inTheWay.add(prefix);
        break;
      }
    }
  }
  return [...inTheWay].sort();
}

function describeInTheWay(paths: readonly string[], branch: string): string {
  const shown = paths.slice(0, SHOWN_PATHS).join(', ');
  const more = paths.length > SHOWN_PATHS ? ` and ${paths.length - SHOWN_PATHS} more` : '';
  const them = paths.length === 1 ? 'it' : 'them';
  return (
    `it adds ${shown}${more}, which your work tree already has as ${paths.length === 1 ? 'a file' : 'files'} git does not track (untracked or ignored); ` +
    `the merge would overwrite ${them}. Move ${them} aside, then merge by hand: git merge --no-ff ${branch}`
  );
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
    // Checked against HEAD as it is now: an earlier merge of this run may have added a path already.
    const inTheWay = await userFilesInTheWay(git, project, request.branch);
    if (!Array.isArray(inTheWay) || inTheWay.length > 0) {
      const why = Array.isArray(inTheWay) ? describeInTheWay(inTheWay, request.branch) : `its files could not be compared with ${base}: ${inTheWay.error}`;
      report.unmerged.push({ id: request.id, branch: request.branch, why });
      continue;
    }
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
