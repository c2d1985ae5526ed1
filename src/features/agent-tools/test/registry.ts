import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import * as v from 'valibot';
import { loadDocument, updateDocument, type DocumentSpec } from '../../../state/document-store.js';
import { mapOf, record } from '../../../state/documents/lenient.js';
import { ToolError } from './tool-error.js';
import { isWorkspaceId, type ToolPaths } from './tool-home.js';
import { errorMessage } from '../../../errors.js';

/**
 * The registry of test workspaces: one JSON file that survives between calls
 * and processes (a `ralph test` per call, or one `ralph mcp` for a whole
 * chat). Writes are atomic and happen under a lock, so two processes setting
 * up workspaces at once both end up registered. A corrupt file is reset with a
 * warning and kept as registry.json.corrupt.
 */

const REGISTRY_VERSION = 1;

/** The last test_run of a workspace, as test_assert needs it. */
const storedRun = record(
  {
    exit_code: v.nullable(v.number('is missing its facts')),
    termination_reason: v.string('is missing its facts'),
    iterations: v.number('is missing its facts'),
    elapsed_secs: v.number('is missing its facts'),
    backend: v.string('is missing its facts'),
    session_file: v.string('is missing its facts'),
    events_count: v.number('is missing its facts'),
    /** Epoch ms when the run started. */
    started_at: v.number('is missing its facts'),
  },
  'is not an object',
);

export type StoredRun = v.InferOutput<typeof storedRun>;

const workspaceEntry = record(
  {
    path: v.string('is not text'),
    created_at: v.number('is not a time'),
    /** Last tool call on this workspace; stale cleanup counts from here. */
    used_at: v.number('is not a time'),
    /** .ralphrc overrides written by test_setup (KEY → value as written). */
    config: mapOf(v.string('is not text'), 'is not an object'),
    last_run: v.optional(v.nullable(storedRun), null),
    /** Snapshots taken so far (names the next one). */
    snapshot_count: v.number('is not a number'),
  },
  'is not an object',
);

/** A session kept by `test_cleanup` with `preserve_session`. */
const preservedEntry = record(
  {
    path: v.string('is not text'),
    session_file: v.string('is not text'),
    preserved_at: v.number('is not a time'),
  },
  'is not an object',
);

/** Entries are keyed by their id; the id is repeated inside for the code that passes one entry around. */
const withIds = <T extends object>(entries: Record<string, T>): Record<string, T & { id: string }> =>
  Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, { id, ...entry }]));

const registrySchema = v.pipe(
  record(
    {
      version: v.literal(REGISTRY_VERSION, 'is unknown: unknown registry version'),
      workspaces: mapOf(workspaceEntry, 'is not an object'),
      preserved: v.optional(mapOf(preservedEntry, 'is not an object'), {}),
    },
    'the registry is not a JSON object',
  ),
  v.transform((r) => ({ version: r.version, workspaces: withIds(r.workspaces), preserved: withIds(r.preserved) })),
);

export type Registry = v.InferOutput<typeof registrySchema>;
export type WorkspaceEntry = Registry['workspaces'][string];
export type PreservedEntry = Registry['preserved'][string];

export function emptyRegistry(): Registry {
  return { version: REGISTRY_VERSION, workspaces: {}, preserved: {} };
}

export const REGISTRY: DocumentSpec<Registry, ToolPaths> = { path: (p) => p.registry, schema: registrySchema, empty: emptyRegistry, version: REGISTRY_VERSION };

/**
 * Entries are trusted to name folders that cleanup deletes, so one whose id
 * breaks the id grammar or whose path is not that id's workspace folder is
 * dropped (with a warning) and its path left alone.
 */
function dropForeignEntries(paths: ToolPaths, registry: Registry, warn: (message: string) => void): Registry {
  const fits = (id: string, path: string): boolean => isWorkspaceId(id) && path === paths.workspaceDir(id);
  for (const [kind, entries] of [
    ['workspace', registry.workspaces],
    ['preserved session', registry.preserved],
  ] as const) {
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
  return dropForeignEntries(paths, loadDocument(paths, REGISTRY, warn), warn);
}

const LOCK_OPTIONS = { realpath: false, stale: 10_000, retries: { retries: 100, minTimeout: 10, maxTimeout: 100 } };

async function lockRegistry(path: string): Promise<() => Promise<void>> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, { ...LOCK_OPTIONS, lockfilePath: `${path}.lock` });
  } catch (error) {
    throw new ToolError(
      'registry_busy',
      `the test workspace registry ${path} stayed locked (${errorMessage(error)})`,
      {},
      'Another ralph test / ralph mcp process holds it; try again.',
    );
  }
  return () => release().catch(() => undefined);
}

/**
 * Read-modify-write under the registry lock. The lock is held only for the
 * update itself, never across a run.
 */
export async function updateRegistry<T>(paths: ToolPaths, warn: (message: string) => void, mutate: (registry: Registry) => T): Promise<T> {
  mkdirSync(paths.home, { recursive: true });
  let value: T | undefined;
  await updateDocument(paths, REGISTRY, { warn, lock: lockRegistry }, (registry) => {
    const trusted = dropForeignEntries(paths, registry, warn);
    value = mutate(trusted);
    return trusted;
  });
  return value as T;
}
