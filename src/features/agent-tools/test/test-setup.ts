import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ProcessRunner } from '../../../ports.js';
import { dirname } from 'node:path';
import { CONFIG_KEYS, FIELD_BY_NAME } from '../../../config/keys.js';
import type { ValueType } from '../../../config/value-types.js';
import { loadConfig } from '../../../config/load-config.js';
import { ownRepositoryConfig, runGitText } from '../../../infra/git.js';
import { ralphPaths } from '../../../state/paths.js';
import { createRalphLayout } from '../../project/setup/ralph-layout.js';
import { quoteRalphrcValue } from '../../project/setup/ralphrc-values.js';
import { captureFiles, INITIAL_SNAPSHOT, saveSnapshot } from './file-snapshot.js';
import { resolveInside } from './path-safety.js';
import { readRegistry, updateRegistry, type WorkspaceEntry } from './registry.js';
import { badInput, ToolError } from './tool-error.js';
import { toolPaths, type ToolContext } from './tool-home.js';
import { readMarker, removeWorkspaceFiles, writeMarker } from './workspace.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';
import { errorMessage } from '../../../errors.js';

/**
 * test_setup: a Ralph project in `<tmp>/ralph-test-<id>`, made
 * with the same layout as ralph-setup, as a git repository with one commit
 * (so Ralph's progress detection works and "initial" has a meaning), with the
 * fixtures written, the scratchpad as `.ralph/fix_plan.md`, and the config
 * overrides written into `.ralphrc` (validated like any .ralphrc).
 */

export type ConfigValue = string | number | boolean | string[] | Record<string, string>;

export interface SetupInput {
  workspace_id: string;
  fixtures?: Record<string, string> | undefined;
  config?: Record<string, ConfigValue> | undefined;
  scratchpad?: string | undefined;
}

export interface SetupResult {
  workspace_path: string;
  workspace_id: string;
  created_files: string[];
  warnings?: string[];
}

const SCRATCHPAD = PROJECT_FILES.fixPlan;

/** A JSON config value as its .ralphrc text. */
export function configText(value: ConfigValue): string {
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
  return String(value);
}

/** Checks the keys and renders the values; every problem is reported at once. */
export function renderConfig(config: Record<string, ConfigValue>): Record<string, string> {
  const problems: string[] = [];
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    const field = FIELD_BY_NAME.get(key);
    if (field === undefined) {
      problems.push(`config.${key}: not a Ralph setting (use .ralphrc names such as MAX_CALLS_PER_HOUR, VERIFY_COMMAND, CLAUDE_TIMEOUT_MINUTES)`);
      continue;
    }
    const text = configText(value);
    const parsed = (CONFIG_KEYS[field].type as ValueType<unknown>).parse(text);
    if (!parsed.ok) {
      problems.push(`config.${key}: "${text}" is invalid; expected ${parsed.expected}`);
      continue;
    }
    try {
      quoteRalphrcValue(text);
      out[key] = text;
    } catch (error) {
      problems.push(`config.${key}: ${errorMessage(error)}`);
    }
  }
  if (problems.length > 0) throw badInput(`invalid config:\n  ${problems.join('\n  ')}`, { problems });
  return out;
}

const TOOLS_IDENTITY = { name: 'Ralph Test Tools', email: 'ralph-test-tools@localhost' };

async function git(runner: ProcessRunner, dir: string, args: string[]): Promise<void> {
  const r = await runGitText(runner, args, { cwd: dir, identity: TOOLS_IDENTITY });
  if (r.exitCode !== 0) throw new ToolError('run_failed', `git ${args.join(' ')} failed in ${dir}: ${(r.stderr || r.spawnError || '').trim()}`);
}

/** Makes room for the workspace folder: a leftover of ours is removed, anything else is refused. */
function clearTheWay(ctx: ToolContext, id: string, dir: string, warnings: string[]): void {
  const paths = toolPaths(ctx.env);
  const registry = readRegistry(paths, ctx.warn);
  if (registry.workspaces[id]) {
    throw new ToolError(
      'workspace_exists',
      `workspace "${id}" already exists at ${registry.workspaces[id].path}`,
      { workspace_id: id },
      'Call test_cleanup for it first, or choose another workspace_id.',
    );
  }
  if (!existsSync(dir)) return;
  const preserved = registry.preserved[id];
  if (preserved?.path === dir) warnings.push(`removed the session preserved by an earlier test_cleanup of "${id}" (${preserved.session_file})`);
  else if (readMarker(dir) === id) warnings.push(`removed a leftover folder of an earlier "${id}" workspace`);
  else
    throw new ToolError(
      'workspace_exists',
      `${dir} exists and was not made by test_setup`,
      { workspace_id: id, path: dir },
      'Move it away or choose another workspace_id.',
    );
  removeWorkspaceFiles(paths, id, dir);
}

function normalizeFixturePath(rel: string): string {
  return rel.replace(/\\/g, '/').replace(/^\.\//, '');
}

/**
 * A fixture cannot be both a file and the folder of another (`a` and `a/b`):
 * refused up front, naming both, whatever order they come in.
 */
function checkFixtureNesting(fixtures: Record<string, string>): void {
  const byPath = new Map<string, string>();
  for (const rel of Object.keys(fixtures)) byPath.set(normalizeFixturePath(rel).replace(/\/+$/, ''), rel);
  const problems: string[] = [];
  for (const [path, rel] of byPath) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const parent = byPath.get(parts.slice(0, i).join('/'));
      if (parent !== undefined)
        problems.push(`fixtures "${parent}" and "${rel}" conflict: "${parent}" would have to be a file and the folder holding "${rel}"`);
    }
  }
  if (problems.length > 0)
    throw badInput(`invalid fixtures:\n  ${problems.join('\n  ')}`, { problems }, 'Give each fixture a path that is not also the folder of another fixture.');
}

function writeFixtures(dir: string, fixtures: Record<string, string>): string[] {
  const written: string[] = [];
  for (const [rel, content] of Object.entries(fixtures)) {
    const normalized = normalizeFixturePath(rel);
    if (normalized === '.git' || normalized.startsWith('.git/'))
      throw new ToolError('path_outside_workspace', `fixture "${rel}" is refused: .git/ belongs to the workspace's repository`, { path: rel });
    const target = resolveInside(dir, normalized, 'fixture');
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A fixture that clashes with a file or folder the Ralph layout already made.
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR')
        throw badInput(`fixture "${rel}" cannot be written: a file or folder on its path already exists in the new workspace (${code})`, { path: rel });
      throw error;
    }
    written.push(normalized);
  }
  return written;
}

function checkRalphrc(dir: string, warnings: string[]): void {
  const path = ralphPaths(dir).ralphrc;
  const loaded = loadConfig({ ralphrc: { path: PROJECT_FILES.ralphrc, text: readFileSync(path, 'utf8') }, env: {}, flags: {} });
  warnings.push(...loaded.warnings);
  if (loaded.errors.length > 0) throw badInput(`the workspace's .ralphrc is invalid:\n  ${loaded.errors.join('\n  ')}`, { problems: loaded.errors });
}

export async function testSetup(input: SetupInput, ctx: ToolContext): Promise<SetupResult> {
  const paths = toolPaths(ctx.env);
  const id = input.workspace_id;
  const dir = paths.workspaceDir(id);
  const warnings: string[] = [];
  const config = renderConfig(input.config ?? {});
  checkFixtureNesting(input.fixtures ?? {});
  clearTheWay(ctx, id, dir, warnings);
  mkdirSync(dir, { recursive: true });
  try {
    await git(ctx.runner, dir, ['init', '-q', '-b', 'main']);
    // The agent commits here too: it needs no global identity, and no background gc may disturb a run.
    const gitConfig: Array<[string, string]> = [...ownRepositoryConfig(TOOLS_IDENTITY), ['gc.auto', '0']];
    for (const [key, value] of gitConfig) await git(ctx.runner, dir, ['config', key, value]);
    writeMarker(dir, id, ctx.now());
    const layout = createRalphLayout(dir, { projectName: `ralph-test-${id}`, ralphrcSettings: Object.entries(config).map(([key, value]) => ({ key, value })) });
    const created = [...layout.created];
    created.push(...writeFixtures(dir, input.fixtures ?? {}));
    if (input.scratchpad !== undefined) {
      if (input.fixtures && Object.keys(input.fixtures).some((p) => p.replace(/^\.\//, '') === SCRATCHPAD))
        warnings.push(`both fixtures and scratchpad set ${SCRATCHPAD}; the scratchpad wins`);
      writeFileSync(ralphPaths(dir).fixPlan, input.scratchpad);
      created.push(SCRATCHPAD);
    }
    checkRalphrc(dir, warnings);
    await git(ctx.runner, dir, ['add', '-A']);
    await git(ctx.runner, dir, ['commit', '-q', '--no-verify', '--allow-empty', '-m', 'test_setup: initial state']);
    const now = ctx.now();
    saveSnapshot(paths, id, { id: INITIAL_SNAPSHOT, taken_at: now, include: [], exclude: [], files: captureFiles(dir, [], []) });
    const entry: WorkspaceEntry = { id, path: dir, created_at: now, used_at: now, config, last_run: null, snapshot_count: 0 };
    await updateRegistry(paths, ctx.warn, (registry) => {
      if (registry.workspaces[id]) throw new ToolError('workspace_exists', `workspace "${id}" was created by another process meanwhile`, { workspace_id: id });
      registry.workspaces[id] = entry;
      delete registry.preserved[id];
    });
    const files = [...new Set(created)];
    return { workspace_path: dir, workspace_id: id, created_files: files, ...(warnings.length > 0 ? { warnings } : {}) };
  } catch (error) {
    // Half a workspace is worse than none: nothing is registered, nothing stays behind.
    if (!(error instanceof ToolError && error.code === 'workspace_exists' && readRegistry(paths, ctx.warn).workspaces[id]?.path === dir))
      removeWorkspaceFiles(paths, id, dir);
    throw error;
  }
}
