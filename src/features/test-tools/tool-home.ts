import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the test tools keep things. Workspaces are `ralph-test-<id>` folders
 * under the system temp dir (seed 003 "Workspace Isolation"); the registry,
 * the snapshots and the MCP verify gates live in `<tmp>/ralph-test-tools/`.
 * RALPH_TEST_TOOLS_HOME moves all of it (workspaces included) to one folder,
 * so tests and parallel users do not share a registry.
 */
export interface ToolPaths {
  home: string;
  registry: string;
  /** Folder holding the `ralph-test-<id>` workspaces. */
  workspacesDir: string;
  /** Per-workspace data kept outside the workspace (snapshots). */
  dataDir(id: string): string;
  /** MCP verify gate state, one file per gate id. */
  gatesDir: string;
  workspaceDir(id: string): string;
}

export const WORKSPACE_PREFIX = 'ralph-test-';

export function toolPaths(env: Readonly<Record<string, string | undefined>>): ToolPaths {
  const override = env['RALPH_TEST_TOOLS_HOME'];
  const home = override && override.trim() !== '' ? resolve(override) : join(tmpdir(), 'ralph-test-tools');
  const workspacesDir = override && override.trim() !== '' ? home : tmpdir();
  return {
    home,
    registry: join(home, 'registry.json'),
    workspacesDir,
    dataDir: (id) => join(home, 'data', id),
    gatesDir: join(home, 'verify-gates'),
    workspaceDir: (id) => join(workspacesDir, `${WORKSPACE_PREFIX}${id}`),
  };
}

/** What every tool call gets from its face (CLI or MCP). */
export interface ToolContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths are resolved against (verify, ralph_status). */
  cwd: string;
  now(): number;
  /** Non-fatal problems (a corrupt registry reset, a stale workspace removed). */
  warn(message: string): void;
  /** Ends a long call early (MCP cancellation, server shutdown). */
  signal?: AbortSignal;
  /** Progress of a long call (test_run), for clients that show it. */
  progress?(message: string): void;
}
