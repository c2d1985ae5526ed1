import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { updateRegistry } from './registry.js';
import { removeInside } from './safe-remove.js';
import { isRealFileInside } from './event-log-records.js';
import { toolPaths, type ToolContext } from './tool-home.js';
import { removeWorkspaceFiles, requireWorkspace, sessionFile } from './workspace.js';

/**
 * test_cleanup: removes the workspace and deregisters its id.
 * With `preserve_session` every file but `.ralph/logs/session.jsonl` goes
 * (the folders on its path stay so it keeps its place); the session stays
 * readable by test_inspect under the same id until the next test_setup of
 * that id or the start-up cleanup a day later.
 */

export interface CleanupInput {
  workspace_id: string;
  preserve_session?: boolean | undefined;
}

export interface CleanupResult {
  deleted: boolean;
  preserved_files: string[];
}

/**
 * Deletes everything under `dir` except `keep` (an absolute path below it) and
 * the folders leading to it. A symlink on that way is removed, never entered:
 * descending through it would delete whatever it points at.
 */
function removeAllBut(dir: string, keep: string): void {
  const [first, ...rest] = relative(dir, keep).split(sep);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === first && !lstatSync(path).isSymbolicLink()) {
      if (rest.length > 0) removeAllBut(path, keep);
      continue;
    }
    rmSync(path, { recursive: true, force: true });
  }
}

export async function testCleanup(input: CleanupInput, ctx: ToolContext): Promise<CleanupResult> {
  const { entry, paths } = requireWorkspace(ctx, input.workspace_id);
  const session = sessionFile(entry.path);
  const preserve = input.preserve_session === true && isRealFileInside(entry.path, session);
  if (preserve) {
    removeAllBut(entry.path, session);
    removeInside(paths.dataRoot, paths.dataDir(entry.id));
  } else removeWorkspaceFiles(paths, entry.id, entry.path);
  await updateRegistry(toolPaths(ctx.env), ctx.warn, (registry) => {
    delete registry.workspaces[entry.id];
    if (preserve) registry.preserved[entry.id] = { id: entry.id, path: entry.path, session_file: session, preserved_at: ctx.now() };
  });
  return { deleted: true, preserved_files: preserve ? [session] : [] };
}
