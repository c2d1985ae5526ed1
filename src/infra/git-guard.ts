import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  configVariables,
  driverOverrides,
  DRIVER_KEYS,
  NEUTRAL_SETTINGS,
  layoutChange,
  parseScopedSettings,
  type RepositoryLayout,
  type ScopedSetting,
} from '../core/git-command-config.js';
import { ExitCode, RalphError } from '../errors.js';
import { commandsEnded } from './command-count.js';
import { run } from './process.js';
import { driverSourceDigest, sourcesUnchanged, type DriverSources, type RepositoryDirs } from './driver-sources.js';
import { lstatOrNull } from './safe-fs.js';
import { activeSandbox } from './sandbox/active-sandbox.js';

/**
 * The check before each of Ralph's own git calls, made once more whenever a long command (the
 * agent, above all) has run since the last one:
 * - the repository git finds from the call's folder is the one it was (the same .git, git dir,
 *   commondir and common dir; while the agent is contained, the same configuration files too):
 *   a planted `.git/commondir` would hand git another configuration;
 * - the drivers the repository's own configuration names (filters, diff and merge drivers)
 *   are switched off for the call, so an in-tree `.gitattributes` sends no file through a
 *   command of the repository's choosing.
 */

interface Known {
  /** The command count the overrides were read at. */
  count: number;
  variables: Record<string, string>;
  /** The layout after Ralph's own last git call in this folder. */
  layout: RepositoryLayout | undefined;
  /** What `variables` were read from, when bytes can tell whether it changed. */
  sources: DriverSources | undefined;
}

// Cache: per folder, the driver overrides and layout Ralph's last git call found there; kept while the
// command count (command-count.ts) and the sources stay the same, so a loop sees what it would read itself.
const known = new Map<string, Known>();

/** The few bytes of a small regular file, never through a link, never blocking on a FIFO; a word for anything else. */
function smallText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `unreadable (${code ?? 'error'})`;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not a regular file';
    const buffer = Buffer.alloc(Math.min(stat.size, 4096));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

function identity(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.isDirectory() ? 'dir' : 'other'}:${stat.dev}:${stat.ino}`;
  } catch {
    return 'absent';
  }
}

function fileIdentity(path: string): string {
  const stat = lstatOrNull(path);
  return stat === null ? 'absent' : `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
}

/** The `.git` git finds from `cwd` up and the directories it leads to; undefined outside a repository. */
interface FoundRepository extends RepositoryDirs {
  dotGit: string;
  kind: 'link' | 'file' | 'dir';
  /** The text of a `.git` file. */
  text: string | undefined;
  /** The text of the git dir's `commondir` file. */
  commondir: string | undefined;
}

function findRepository(cwd: string): FoundRepository | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const stat = lstatOrNull(dotGit);
    if (stat !== null) {
      const text = stat.isFile() ? smallText(dotGit) : undefined;
      const pointed = text?.match(/^gitdir: (.+?)\s*$/m)?.[1];
      const gitDir = pointed === undefined ? dotGit : resolve(dir, pointed);
      const commondir = smallText(join(gitDir, 'commondir'));
      const commonDir = commondir === undefined ? gitDir : resolve(gitDir, commondir.trim());
      return { dotGit, kind: stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'dir', text, gitDir, commondir, commonDir };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Where git finds the repository of `cwd` and its configuration, read as git discovers it; undefined outside one. */
export function readRepositoryLayout(cwd: string): RepositoryLayout | undefined {
  const found = findRepository(cwd);
  if (found === undefined) return undefined;
  const { dotGit, kind, text, gitDir, commondir, commonDir } = found;
  const configFiles = [join(commonDir, 'config'), join(commonDir, 'config.worktree'), join(gitDir, 'config.worktree')].map(fileIdentity).join(' ');
  return {
    dotGit: `${dotGit} ${kind} ${identity(dotGit)} ${text ?? ''}`,
    gitDir: `${gitDir} ${identity(gitDir)}`,
    commondir: commondir ?? 'none',
    commonDir: `${commonDir} ${identity(commonDir)}`,
    configFiles,
  };
}

/** The check's own git calls run nothing of the repository's either (an fsmonitor program, above all). */
const NEUTRAL_ARGS = ['--no-optional-locks', ...NEUTRAL_SETTINGS.flatMap(([key, value]) => ['-c', `${key}=${value}`])];

/** The settings of drivers that name a command, with their scopes, as git reads them in `cwd`. */
async function driverSettings(cwd: string, env: NodeJS.ProcessEnv): Promise<ScopedSetting[]> {
  const answer = await run('git', [...NEUTRAL_ARGS, 'config', '-z', '--show-scope', '--get-regexp', DRIVER_KEYS], { cwd, env });
  // Exit 1: no such setting. Anything else (no folder, no git) leaves nothing to switch off.
  return answer.exitCode === 0 ? parseScopedSettings(answer.stdout.toString('utf8')) : [];
}

/** How deep submodules in submodules are looked into. */
const NESTING = 3;

/** The submodules in `cwd`'s index: the work tree of each, and which of them are there on disk. */
interface Submodules {
  gitlinks: string[];
  onDisk: string[];
}

/**
 * The submodules in `cwd`'s index. `git status` looks inside each that is there on disk with
 * that repository's own configuration, and the agent may have made one (a repository inside
 * the project, added as a gitlink).
 */
async function submodules(cwd: string, env: NodeJS.ProcessEnv): Promise<Submodules> {
  const answer = await run('git', [...NEUTRAL_ARGS, 'ls-files', '-z', '--stage', '--', ':/'], { cwd, env });
  const found: Submodules = { gitlinks: [], onDisk: [] };
  if (answer.exitCode !== 0) return found;
  for (const entry of answer.stdout.toString('utf8').split('\0')) {
    if (!entry.startsWith('160000 ')) continue;
    const tab = entry.indexOf('\t');
    if (tab === -1) continue;
    const tree = resolve(cwd, entry.slice(tab + 1));
    found.gitlinks.push(tree);
    if (lstatOrNull(join(tree, '.git')) !== null) found.onDisk.push(tree);
  }
  return found;
}

interface DriverReading {
  variables: Record<string, string>;
  /** The submodules of `cwd`'s own index. */
  top: Submodules;
}

/**
 * The drivers the repository's own configuration defines, and each of its submodules'
 * (switched off by name: the variables reach the git that `git status` starts in a
 * submodule), as git's config variables.
 */
async function readDriverOverrides(cwd: string, env: NodeJS.ProcessEnv): Promise<DriverReading> {
  // Two questions to git that do not depend on each other: asked at once.
  const [settings, top] = await Promise.all([driverSettings(cwd, env), submodules(cwd, env)]);
  let level = top.onDisk;
  for (let depth = 0; depth < NESTING && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const dir of level) {
      settings.push(...(await driverSettings(dir, env)));
      if (depth + 1 < NESTING) next.push(...(await submodules(dir, env)).onDisk);
    }
    level = next;
  }
  return { variables: configVariables(driverOverrides(settings), env), top };
}

/**
 * What a git call in `cwd` adds to its environment. Throws a RalphError (exit 1) when the
 * repository there is not the one Ralph's last git call saw before a command ran.
 */
export async function guardGitCall(cwd: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const key = resolve(cwd);
  const count = commandsEnded();
  const before = known.get(key);
  if (before !== undefined && before.count === count) return before.variables;
  if (before !== undefined) {
    const what = layoutChange(before.layout, readRepositoryLayout(key), activeSandbox() !== undefined);
    if (what !== undefined) {
      throw new RalphError(
        `The git repository of ${key} changed while the agent ran (${what}): git would now read another configuration, which could run commands of its own. Ralph runs no git command there.`,
        ExitCode.RuntimeError,
        'Look at what changed (ls -la .git; cat .git/commondir; git config --list --show-origin), put the repository back as it was, then run ralph again.',
      );
    }
  }
  const found = findRepository(key);
  const digest = found === undefined ? undefined : driverSourceDigest(key, found, env);
  if (before !== undefined && sourcesUnchanged(before.sources, digest)) {
    before.count = count;
    return before.variables;
  }
  const reading = await readDriverOverrides(key, env);
  // Read again next time unless every source compares whole: no submodule on disk.
  const sources = digest !== undefined && reading.top.onDisk.length === 0 ? { digest, gitlinks: reading.top.gitlinks } : undefined;
  known.set(key, { count, variables: reading.variables, layout: before?.layout ?? readRepositoryLayout(key), sources });
  return reading.variables;
}

/** After Ralph's own git call in `cwd`: what it changed itself is the layout the next check starts from. */
export function noteGitCallDone(cwd: string): void {
  const entry = known.get(resolve(cwd));
  if (entry !== undefined) entry.layout = readRepositoryLayout(resolve(cwd));
}
