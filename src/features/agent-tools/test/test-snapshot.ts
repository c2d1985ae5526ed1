import { captureFiles, displayContent, saveSnapshot } from './file-snapshot.js';
import type { ToolContext } from './tool-home.js';
import { requireWorkspace, touchWorkspace } from './workspace.js';

/**
 * test_snapshot: the workspace's files now, stored under an id
 * (`snap_<workspace>_001`, …) for test_diff. See file-snapshot.ts for what is
 * included by default.
 */

export interface SnapshotInput {
  workspace_id: string;
  include_patterns?: string[] | undefined;
  exclude_patterns?: string[] | undefined;
}

export interface SnapshotResult {
  snapshot_id: string;
  files: Record<string, string>;
  file_count: number;
  total_bytes: number;
}

export async function testSnapshot(input: SnapshotInput, ctx: ToolContext): Promise<SnapshotResult> {
  const { entry, paths } = requireWorkspace(ctx, input.workspace_id);
  const include = input.include_patterns ?? [];
  const exclude = input.exclude_patterns ?? [];
  const files = captureFiles(entry.path, include, exclude);
  // The counter is taken under the registry lock: two snapshots never share an id.
  const updated = await touchWorkspace(ctx, input.workspace_id, (e) => {
    e.snapshot_count += 1;
  });
  const id = `snap_${entry.id}_${String(updated.snapshot_count).padStart(3, '0')}`;
  saveSnapshot(paths, entry.id, { id, taken_at: ctx.now(), include, exclude, files });
  const shown: Record<string, string> = {};
  let total = 0;
  for (const [path, file] of Object.entries(files)) {
    shown[path] = displayContent(file);
    total += file.bytes;
  }
  return { snapshot_id: id, files: shown, file_count: Object.keys(files).length, total_bytes: total };
}
