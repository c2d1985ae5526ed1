import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRegistry, updateRegistry, type Registry } from './registry.js';
import { toolPaths, WORKSPACE_PREFIX, type ToolContext } from './tool-home.js';
import { markerPath, readMarker, removeWorkspaceFiles } from './workspace.js';

/**
 * Start-up cleanup (seed 003 "Cleanup Enforcement"): workspaces idle for more
 * than a day, registered workspaces whose folder vanished, preserved sessions
 * older than a day, and `ralph-test-*` folders carrying our marker that no
 * registry knows (a crash between creating and registering) once they are a
 * day old. A folder without our marker is never touched. MCP verify gates
 * untouched for a day are forgotten too.
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

function removeOrphans(ctx: ToolContext, registry: Registry, now: number, maxAgeMs: number): string[] {
  const paths = toolPaths(ctx.env);
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
    if (id === undefined) continue;
    try {
      if (now - statSync(markerPath(dir)).mtimeMs <= maxAgeMs) continue;
    } catch {
      continue;
    }
    removeWorkspaceFiles(paths, id, dir);
    removed.push(dir);
  }
  return removed;
}

function removeOldGates(ctx: ToolContext, now: number, maxAgeMs: number): void {
  const dir = toolPaths(ctx.env).gatesDir;
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
      if (now - statSync(path).mtimeMs > maxAgeMs && !existsSync(`${path}.lock`)) rmSync(path, { force: true });
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
  const removed = removeOrphans(ctx, current, now, maxAgeMs);
  removeOldGates(ctx, now, maxAgeMs);
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
      if (entry) rmSync(entry.path, { recursive: true, force: true });
      delete registry.preserved[id];
    }
    return [...stale.workspaces, ...stale.preserved.map((id) => `${id} (preserved session)`)];
  });
  for (const id of gone) ctx.warn(`removed stale test workspace ${id}`);
  return [...removed, ...gone];
}
