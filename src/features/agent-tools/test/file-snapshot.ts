import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { checkGlobPattern, compileGlobs } from '../../../core/path-glob.js';
import * as v from 'valibot';
import { readJsonFile } from '../../../state/document-store.js';
import { mapOf, record } from '../../../state/documents/lenient.js';
import { writeJsonAtomic } from '../../../state/json-file.js';
import { badInput, ToolError } from './tool-error.js';
import type { ToolPaths } from './tool-home.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

/**
 * The files of a workspace at one moment (test_snapshot, test_diff). `.git/`
 * is never included; Ralph's own runtime state (logs, status.json, the
 * `.ralph/.*` state files) is left out unless include patterns are given,
 * because it changes on every run and would drown the agent's changes.
 * Snapshots are stored outside the workspace, so taking one changes nothing
 * that a later snapshot would see.
 */

export interface SnapshotFile {
  bytes: number;
  sha256: string;
  /** The content; null for binary files and files over MAX_TEXT_BYTES. */
  text: string | null;
  symlink?: string;
}

export interface StoredSnapshot {
  id: string;
  taken_at: number;
  include: string[];
  exclude: string[];
  files: Record<string, SnapshotFile>;
}

export const MAX_SNAPSHOT_FILES = 10_000;
export const MAX_TEXT_BYTES = 1024 * 1024;
export const RUNTIME_STATE_PATTERNS: readonly string[] = [
  `${PROJECT_FILES.logsDir}/**`,
  `${PROJECT_FILES.dir}/status.json`,
  `${PROJECT_FILES.dir}/progress.json`,
  `${PROJECT_FILES.dir}/live.log`,
  `${PROJECT_FILES.dir}/.*`,
];

function listFiles(root: string, dir = '', out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) listFiles(root, rel, out);
    else out.push(rel);
    if (out.length > MAX_SNAPSHOT_FILES) {
      throw new ToolError(
        'too_many_files',
        `the workspace has more than ${MAX_SNAPSHOT_FILES} files`,
        {},
        'Narrow the snapshot with include_patterns / exclude_patterns.',
      );
    }
  }
  return out;
}

function readSnapshotFile(path: string): SnapshotFile {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) {
    const target = readlinkSync(path);
    return { bytes: 0, sha256: createHash('sha256').update(`symlink:${target}`).digest('hex'), text: `symlink to ${target}`, symlink: target };
  }
  const data = readFileSync(path);
  const sha256 = createHash('sha256').update(data).digest('hex');
  const binary = data.subarray(0, 8000).includes(0);
  const text = binary || data.length > MAX_TEXT_BYTES ? null : data.toString('utf8');
  return { bytes: data.length, sha256, text };
}

export function checkPatterns(patterns: readonly string[], field: string): void {
  for (const pattern of patterns) {
    const problem = checkGlobPattern(pattern);
    if (problem) throw new ToolError('path_outside_workspace', `${field}: ${problem}`, { pattern });
  }
}

/** The files of `root` selected by the patterns (see the module comment for the defaults). */
export function captureFiles(root: string, include: readonly string[], exclude: readonly string[]): Record<string, SnapshotFile> {
  checkPatterns(include, 'include_patterns');
  checkPatterns(exclude, 'exclude_patterns');
  const included = include.length > 0 ? compileGlobs(include) : undefined;
  const excluded = compileGlobs(include.length > 0 ? exclude : [...RUNTIME_STATE_PATTERNS, ...exclude]);
  const files: Record<string, SnapshotFile> = {};
  for (const rel of listFiles(root).sort()) {
    if (included && !included(rel)) continue;
    if (excluded(rel)) continue;
    files[rel] = readSnapshotFile(join(root, rel));
  }
  return files;
}

/** What test_snapshot shows for a file: its text, or a note for binary and large files. */
export function displayContent(file: SnapshotFile): string {
  if (file.text !== null) return file.text;
  return file.bytes > MAX_TEXT_BYTES
    ? `[${file.bytes} bytes, too large to show; sha256 ${file.sha256}]`
    : `[binary file, ${file.bytes} bytes; sha256 ${file.sha256}]`;
}

export const INITIAL_SNAPSHOT = 'initial';

function snapshotPath(paths: ToolPaths, workspaceId: string, snapshotId: string): string {
  return join(paths.dataDir(workspaceId), 'snapshots', `${snapshotId}.json`);
}

export function saveSnapshot(paths: ToolPaths, workspaceId: string, snapshot: StoredSnapshot): void {
  writeJsonAtomic(snapshotPath(paths, workspaceId, snapshot.id), snapshot);
}

const texts = v.fallback(
  v.pipe(
    v.array(v.unknown()),
    v.transform((items) => items.filter((item): item is string => typeof item === 'string')),
  ),
  () => [],
);

const snapshotFile = record(
  {
    bytes: v.number('is damaged'),
    sha256: v.string('is damaged'),
    text: v.nullable(v.string('is damaged')),
    symlink: v.fallback(v.optional(v.string()), undefined),
  },
  'is damaged',
);

const snapshotSchema: v.GenericSchema<unknown, StoredSnapshot> = record(
  {
    id: v.string('is not text'),
    taken_at: v.number('is not a time'),
    include: texts,
    exclude: texts,
    files: mapOf(snapshotFile, 'is not an object'),
  },
  'not a snapshot',
);

/** A stored snapshot; unknown or damaged ids are an `unknown_snapshot` error listing the ones there are. */
export function loadSnapshot(paths: ToolPaths, workspaceId: string, snapshotId: string): StoredSnapshot {
  if (!/^[A-Za-z0-9_.-]+$/.test(snapshotId)) throw badInput(`"${snapshotId}" is not a snapshot id`);
  const read = readJsonFile(snapshotPath(paths, workspaceId, snapshotId), snapshotSchema);
  if (read.kind === 'ok') return read.value;
  if (read.kind === 'corrupt') throw new ToolError('unknown_snapshot', `snapshot ${snapshotId} is damaged: ${read.reason}`, { snapshot_id: snapshotId });
  let known: string[] = [];
  try {
    known = readdirSync(join(paths.dataDir(workspaceId), 'snapshots'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
      .sort();
  } catch {
    // No snapshots yet.
  }
  throw new ToolError('unknown_snapshot', `unknown snapshot "${snapshotId}" in workspace ${workspaceId}; known: ${known.join(', ') || 'none'}`, {
    snapshot_id: snapshotId,
    available_snapshots: known,
  });
}
