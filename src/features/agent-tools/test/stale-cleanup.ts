import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readRegistry, updateRegistry, type Registry } from './registry.js';
import { removeInside } from './safe-remove.js';
import { toolPaths, WORKSPACE_PREFIX, type ToolContext, type ToolPaths } from './tool-home.js';
import { markerPath, readMarker, removeWorkspaceFiles } from './workspace.js';

/**
 * Start-up cleanup: workspaces idle for more
 * than a day, registered workspaces whose folder vanished, preserved sessions
 * older than a day, and `ralph-test-*` folders carrying our marker that no
 * registry knows (a crash between creating and registering) once they are a
 * day old. A folder without our marker is never touched, and neither is one
 * whose marker names another folder: the id in a marker is only trusted when
 * it is a valid id and the folder is exactly `ralph-test-<that id>`. MCP
 * verify gates untouched for a day are forgotten too.
 */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

function staleIds(registry: Registry, now: number, maxAgeMs: number): { workspaces: string[]; preserved: string[] } {
  return {
    workspaces: Object.values(registry.workspaces)
      .filter((w) => !existsSync(w.path) || now - w.used_at > maxAgeMs)
      .map((w) => w.id),
    preserved: Object.values(registry.preserved)
      .filter((p) => !existsSync(p.path) || now - p.preserved_at > maxAgeMs)
      .map((p) => p.id),
  };
}

function removeOrphans(paths: ToolPaths, registry: Registry, now: number, maxAgeMs: number): string[] {
  const known = new Set([...Object.values(registry.workspaces).map((w) => w.path), ...Object.values(registry.preserved).map((p) => p.path)]);
  let names: string[];
  try {
    names = readdirSync(paths.workspacesDir).filter((n) => n.startsWith(WORKSPACE_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(paths.workspacesDir, name);
    if (known.has(dir)) continue;
    const id = readMarker(dir);
    if (id === undefined || `${WORKSPACE_PREFIX}${id}` !== name) continue;
    try {
      if (now - lstatSync(markerPath(dir)).mtimeMs <= maxAgeMs) continue;
    } catch {
      continue;
    }
    removeWorkspaceFiles(paths, id, dir);
    removed.push(dir);
  }
  return removed;
}

function removeOldGates(paths: ToolPaths, now: number, maxAgeMs: number): void {
  const dir = paths.gatesDir;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      // A gate in use holds its lock; its file is rewritten on every call, so its age is its idle time.
      const stat = lstatSync(path);
      if ((stat.isFile() || stat.isSymbolicLink()) && now - stat.mtimeMs > maxAgeMs && !existsSync(`${path}.lock`)) rmSync(path, { force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Removes what is stale; returns what it removed (ids and orphan folders). */
export async function cleanStaleWorkspaces(ctx: ToolContext, maxAgeMs = STALE_AFTER_MS): Promise<string[]> {
  const paths = toolPaths(ctx.env);
  const now = ctx.now();
  const current = readRegistry(paths, ctx.warn);
  const removed = removeOrphans(paths, current, now, maxAgeMs);
  removeOldGates(paths, now, maxAgeMs);
  const first = staleIds(current, now, maxAgeMs);
  // Lock only when there is something to do: this runs on every `ralph test`.
  if (first.workspaces.length === 0 && first.preserved.length === 0) return removed;
  const gone = await updateRegistry(paths, ctx.warn, (registry) => {
    const stale = staleIds(registry, now, maxAgeMs);
    for (const id of stale.workspaces) {
      const entry = registry.workspaces[id];
      if (entry) removeWorkspaceFiles(paths, id, entry.path);
      delete registry.workspaces[id];
    }
    for (const id of stale.preserved) {
      const entry = registry.preserved[id];
      if (entry) removeInside(paths.workspacesDir, entry.path);
      delete registry.preserved[id];
    }
    return [...stale.workspaces, ...stale.preserved.map((id) => `${id} (preserved session)`)];
  });
  for (const id of gone) ctx.warn(`removed stale test workspace ${id}`);
  return [...removed, ...gone];
}
