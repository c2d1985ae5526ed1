import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { isRecord, loadStateFile, writeJsonAtomic } from '../../state/json-file.js';
import type { RunFacts } from './assertions.js';
import { ToolError } from './tool-error.js';
import { isWorkspaceId, type ToolPaths } from './tool-home.js';

/**
 * The registry of test workspaces: one JSON file that survives between calls
 * and processes (a `ralph test` per call, or one `ralph mcp` for a whole
 * chat). Writes are atomic and happen under a lock, so two processes setting
 * up workspaces at once both end up registered. A corrupt file is reset with a
 * warning and kept as registry.json.corrupt.
 */

/** The last test_run of a workspace, as test_assert needs it. */
export interface StoredRun extends RunFacts {
  backend: string;
  session_file: string;
  events_count: number;
  /** Epoch ms when the run started. */
  started_at: number;
}

export interface WorkspaceEntry {
  id: string;
  path: string;
  created_at: number;
  /** Last tool call on this workspace; stale cleanup counts from here. */
  used_at: number;
  /** .ralphrc overrides written by test_setup (KEY → value as written). */
  config: Record<string, string>;
  last_run: StoredRun | null;
  /** Snapshots taken so far (names the next one). */
  snapshot_count: number;
}

/** A session kept by `test_cleanup` with `preserve_session`. */
export interface PreservedEntry {
  id: string;
  path: string;
  session_file: string;
  preserved_at: number;
}

export interface Registry {
  version: 1;
  workspaces: Record<string, WorkspaceEntry>;
  preserved: Record<string, PreservedEntry>;
}

export function emptyRegistry(): Registry {
  return { version: 1, workspaces: {}, preserved: {} };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function normalizeRun(value: unknown): StoredRun | null | string {
  if (value === null || value === undefined) return null;
  if (!isRecord(value)) return 'last_run is not an object';
  const { exit_code, termination_reason, iterations, elapsed_secs, backend, session_file, events_count, started_at } = value;
  if (!(exit_code === null || isNum(exit_code)) || !isStr(termination_reason) || !isNum(iterations) || !isNum(elapsed_secs)) return 'last_run is missing its facts';
  if (!isStr(backend) || !isStr(session_file) || !isNum(events_count) || !isNum(started_at)) return 'last_run is missing its facts';
  return { exit_code, termination_reason, iterations, elapsed_secs, backend, session_file, events_count, started_at };
}

function normalizeEntry(id: string, value: unknown): WorkspaceEntry | string {
  if (!isRecord(value)) return `workspace ${id} is not an object`;
  const { path, created_at, used_at, config, snapshot_count } = value;
  if (!isStr(path) || !isNum(created_at) || !isNum(used_at) || !isNum(snapshot_count)) return `workspace ${id} is missing fields`;
  if (!isRecord(config) || !Object.values(config).every(isStr)) return `workspace ${id} has a bad config`;
  const run = normalizeRun(value['last_run']);
  if (typeof run === 'string') return `workspace ${id}: ${run}`;
  return { id, path, created_at, used_at, config: config as Record<string, string>, last_run: run, snapshot_count };
}

function normalizePreserved(id: string, value: unknown): PreservedEntry | string {
  if (!isRecord(value)) return `preserved ${id} is not an object`;
  const { path, session_file, preserved_at } = value;
  if (!isStr(path) || !isStr(session_file) || !isNum(preserved_at)) return `preserved ${id} is missing fields`;
  return { id, path, session_file, preserved_at };
}

export function normalizeRegistry(value: unknown): Registry | string {
  if (!isRecord(value)) return 'the registry is not a JSON object';
  if (value['version'] !== 1) return 'unknown registry version';
  const workspaces = value['workspaces'];
  const preserved = value['preserved'] ?? {};
  if (!isRecord(workspaces) || !isRecord(preserved)) return 'workspaces or preserved is not an object';
  const out = emptyRegistry();
  for (const [id, raw] of Object.entries(workspaces)) {
    const entry = normalizeEntry(id, raw);
    if (typeof entry === 'string') return entry;
    out.workspaces[id] = entry;
  }
  for (const [id, raw] of Object.entries(preserved)) {
    const entry = normalizePreserved(id, raw);
    if (typeof entry === 'string') return entry;
    out.preserved[id] = entry;
  }
  return out;
}

/**
 * Entries are trusted to name folders that cleanup deletes, so one whose id
 * breaks the id grammar or whose path is not that id's workspace folder is
 * dropped (with a warning) and its path left alone.
 */
function dropForeignEntries(paths: ToolPaths, registry: Registry, warn: (message: string) => void): Registry {
  const fits = (id: string, path: string): boolean => isWorkspaceId(id) && path === paths.workspaceDir(id);
  for (const [kind, entries] of [['workspace', registry.workspaces], ['preserved session', registry.preserved]] as const) {
    for (const [id, entry] of Object.entries(entries)) {
      if (fits(id, entry.path)) continue;
      warn(`ignored the registry's ${kind} "${id.slice(0, 80)}": its path ${entry.path.slice(0, 200)} is not a test workspace folder of ${paths.home}`);
      delete entries[id];
    }
  }
  return registry;
}

/** Reads the registry without the lock (writes are atomic, so a read never sees half a file). */
export function readRegistry(paths: ToolPaths, warn: (message: string) => void): Registry {
  return dropForeignEntries(paths, loadStateFile(paths.registry, normalizeRegistry, emptyRegistry, warn), warn);
}

const LOCK_OPTIONS = { realpath: false, stale: 10_000, retries: { retries: 100, minTimeout: 10, maxTimeout: 100 } };

/**
 * Read-modify-write under the registry lock. The lock is held only for the
 * update itself, never across a run.
 */
export async function updateRegistry<T>(paths: ToolPaths, warn: (message: string) => void, mutate: (registry: Registry) => T): Promise<T> {
  mkdirSync(paths.home, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(paths.registry, { ...LOCK_OPTIONS, lockfilePath: `${paths.registry}.lock` });
  } catch (error) {
    throw new ToolError('registry_busy', `the test workspace registry ${paths.registry} stayed locked (${(error as Error).message})`, {}, 'Another ralph test / ralph mcp process holds it; try again.');
  }
  try {
    const registry = readRegistry(paths, warn);
    const value = mutate(registry);
    writeJsonAtomic(paths.registry, registry);
    return value;
  } finally {
    await release().catch(() => undefined);
  }
}
