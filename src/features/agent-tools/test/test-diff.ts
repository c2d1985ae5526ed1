import { diffLines, type DiffHunk } from '../../../core/line-diff.js';
import { captureFiles, loadSnapshot, type SnapshotFile } from './file-snapshot.js';
import type { ToolContext } from './tool-home.js';
import { requireWorkspace, touchWorkspace } from './workspace.js';

/**
 * test_diff: what changed between two states of a workspace —
 * "initial" (the state test_setup left), a snapshot id, or "current" (the
 * files now, selected with the baseline's include/exclude patterns so the two
 * sides cover the same files). Text files get line-level diffs with hunks;
 * binary or oversized files are listed with `binary: true` and no hunks.
 */

export interface DiffInput {
  workspace_id: string;
  baseline: string;
  compare_to?: string | undefined;
}

export interface FileDiff {
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  binary?: true;
  /** False when the files were too different for a minimal diff. */
  exact?: false;
}

export interface DiffResult {
  changed_files: string[];
  added_files: string[];
  deleted_files: string[];
  diffs: Record<string, FileDiff>;
}

function diffFile(before: SnapshotFile | undefined, after: SnapshotFile | undefined): FileDiff {
  if ((before && before.text === null) || (after && after.text === null)) return { additions: 0, deletions: 0, hunks: [], binary: true };
  const d = diffLines(before?.text ?? '', after?.text ?? '');
  return { additions: d.additions, deletions: d.deletions, hunks: d.hunks, ...(d.exact ? {} : { exact: false as const }) };
}

/** Compares two file maps (pure). */
export function compareFiles(before: Record<string, SnapshotFile>, after: Record<string, SnapshotFile>): DiffResult {
  const result: DiffResult = { changed_files: [], added_files: [], deleted_files: [], diffs: {} };
  for (const path of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const a = before[path];
    const b = after[path];
    if (a && b && a.sha256 === b.sha256) continue;
    if (a && b) result.changed_files.push(path);
    else if (b) result.added_files.push(path);
    else result.deleted_files.push(path);
    result.diffs[path] = diffFile(a, b);
  }
  return result;
}

export async function testDiff(input: DiffInput, ctx: ToolContext): Promise<DiffResult> {
  const { entry, paths } = requireWorkspace(ctx, input.workspace_id);
  const baseline = loadSnapshot(paths, entry.id, input.baseline);
  const target = input.compare_to ?? 'current';
  const after = target === 'current' ? captureFiles(entry.path, baseline.include, baseline.exclude) : loadSnapshot(paths, entry.id, target).files;
  await touchWorkspace(ctx, input.workspace_id);
  return compareFiles(baseline.files, after);
}
