import { tmpdir, userInfo } from 'node:os';
import type { ProcessRunner } from '../../../ports.js';
import { join, resolve } from 'node:path';
import { ensurePrivateHome } from './private-home.js';
import { badInput } from './tool-error.js';

/**
 * Where the test tools keep things: one private per-user folder (mode 0700,
 * owned by the user) holding the `ralph-test-<id>` workspaces, the registry,
 * the snapshots and the MCP verify gates. It is never the shared temp dir
 * itself: anything there can be planted by another local user, and start-up
 * cleanup deletes what it finds. RALPH_TEST_TOOLS_HOME moves all of it to one
 * folder (held to the same privacy rules), so tests and parallel users do not
 * share a registry.
 */
export interface ToolPaths {
  home: string;
  registry: string;
  /** Folder holding the `ralph-test-<id>` workspaces. */
  workspacesDir: string;
  /** Folder holding the per-workspace data kept outside the workspaces (snapshots). */
  dataRoot: string;
  /** Per-workspace data kept outside the workspace (snapshots). */
  dataDir(id: string): string;
  /** MCP verify gate state, one file per gate id. */
  gatesDir: string;
  workspaceDir(id: string): string;
}

export const WORKSPACE_PREFIX = 'ralph-test-';

/** Workspace ids become folder names: letters, digits, `_`, `.`, `-`, starting with a letter or digit. */
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isWorkspaceId(id: string): boolean {
  return WORKSPACE_ID_PATTERN.test(id);
}

function checkedId(id: string): string {
  if (!isWorkspaceId(id))
    throw badInput(`"${id.slice(0, 80)}" is not a workspace id (letters, digits, "_", ".", "-"; at most 64; starting with a letter or digit)`, {
      workspace_id: id.slice(0, 80),
    });
  return id;
}

function defaultHome(): string {
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(tmpdir(), `ralph-test-tools-${uid}`);
}

/** The paths, with the home created (0700) or checked to be private; an unsafe home is an `unsafe_home` error. */
export function toolPaths(env: Readonly<Record<string, string | undefined>>): ToolPaths {
  const override = env['RALPH_TEST_TOOLS_HOME'];
  const home = override && override.trim() !== '' ? resolve(override) : defaultHome();
  ensurePrivateHome(home);
  const dataRoot = join(home, 'data');
  return {
    home,
    registry: join(home, 'registry.json'),
    workspacesDir: home,
    dataRoot,
    dataDir: (id) => join(dataRoot, checkedId(id)),
    gatesDir: join(home, 'verify-gates'),
    workspaceDir: (id) => join(home, `${WORKSPACE_PREFIX}${checkedId(id)}`),
  };
}

/** What every tool call gets from its face (CLI or MCP). */
export interface ToolContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths are resolved against (verify, ralph_status). */
  cwd: string;
  now(): number;
  /** Runs git for the workspaces and the verify tool's checkpoints. */
  runner: ProcessRunner;
  /** Non-fatal problems (a corrupt registry reset, a stale workspace removed). */
  warn(message: string): void;
  /** Ends a long call early (MCP cancellation, server shutdown). */
  signal?: AbortSignal;
  /** Progress of a long call (test_run), for clients that show it. */
  progress?(message: string): void;
}
