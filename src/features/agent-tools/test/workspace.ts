import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ralphPaths } from '../../../state/paths.js';
import { isRecord } from '../../../state/json-file.js';
import { readRegistry, updateRegistry, type WorkspaceEntry } from './registry.js';
import { ToolError } from './tool-error.js';
import { removeInside } from './safe-remove.js';
import { isWorkspaceId, toolPaths, WORKSPACE_PREFIX, type ToolContext, type ToolPaths } from './tool-home.js';

/**
 * Looking up registered workspaces, and the marker that says a folder was
 * made by test_setup (so start-up cleanup never deletes a folder it does not
 * own). The marker lives in `.git/`, where snapshots and the agent never look.
 */

export { WORKSPACE_ID_PATTERN } from './tool-home.js';
const MARKER = join('.git', 'ralph-test-workspace.json');

export function markerPath(dir: string): string {
  return join(dir, MARKER);
}

export function writeMarker(dir: string, id: string, now: number): void {
  writeFileSync(markerPath(dir), `${JSON.stringify({ id, created_at: now })}\n`);
}

/** True when `path` and its `.git` are real directories (not symlinks), so reading below them stays inside. */
function isRealDirChain(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory() && lstatSync(join(dir, '.git')).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The workspace id recorded in a folder's marker, if it has one. The id is
 * untrusted text until it passes the id grammar; a marker reached through a
 * symlink, or a file that is not a plain one, counts as no marker.
 */
export function readMarker(dir: string): string | undefined {
  if (!isRealDirChain(dir)) return undefined;
  try {
    if (!lstatSync(markerPath(dir)).isFile()) return undefined;
    const value: unknown = JSON.parse(readFileSync(markerPath(dir), 'utf8'));
    const id = isRecord(value) ? value['id'] : undefined;
    return typeof id === 'string' && isWorkspaceId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function unknownWorkspace(id: string, known: string[]): ToolError {
  const list = known.length > 0 ? known.join(', ') : 'none';
  return new ToolError(
    'unknown_workspace',
    `unknown workspace_id "${id}"; known workspaces: ${list}`,
    { workspace_id: id, available_workspaces: known },
    'Create it with test_setup, or use one of the ids listed.',
  );
}

/** The registered workspace, or an `unknown_workspace` error listing the ids there are. */
export function requireWorkspace(ctx: ToolContext, id: string): { entry: WorkspaceEntry; paths: ToolPaths } {
  const paths = toolPaths(ctx.env);
  const registry = readRegistry(paths, ctx.warn);
  const entry = registry.workspaces[id];
  if (!entry) throw unknownWorkspace(id, Object.keys(registry.workspaces).sort());
  if (!existsSync(entry.path)) {
    throw new ToolError(
      'unknown_workspace',
      `workspace "${id}" is registered but its folder ${entry.path} is gone`,
      { workspace_id: id },
      'Call test_cleanup for it and test_setup again.',
    );
  }
  return { entry, paths };
}

/** Records a use of the workspace (stale cleanup counts idle time from here) and applies `change`. */
export async function touchWorkspace(ctx: ToolContext, id: string, change: (entry: WorkspaceEntry) => void = () => undefined): Promise<WorkspaceEntry> {
  const paths = toolPaths(ctx.env);
  return updateRegistry(paths, ctx.warn, (registry) => {
    const entry = registry.workspaces[id];
    if (!entry) throw unknownWorkspace(id, Object.keys(registry.workspaces).sort());
    entry.used_at = ctx.now();
    change(entry);
    return entry;
  });
}

export function sessionFile(workspace: string): string {
  return ralphPaths(workspace).sessionRecording;
}

/**
 * Removes a workspace folder and the data kept for it outside (snapshots).
 * Only `ralph-test-<id>` directly in the tools' home is ever deleted, with
 * every path checked to stay there; anything else is refused and kept.
 */
export function removeWorkspaceFiles(paths: ToolPaths, id: string, dir: string): void {
  if (!isWorkspaceId(id) || dir !== join(paths.workspacesDir, `${WORKSPACE_PREFIX}${id}`)) {
    throw new ToolError('run_failed', `refusing to delete ${dir}: it is not the folder of workspace "${id.slice(0, 80)}"`, { path: dir });
  }
  removeInside(paths.workspacesDir, dir);
  removeInside(paths.dataRoot, paths.dataDir(id));
}
