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
}

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

/** Where git finds the repository of `cwd` and its configuration, read as git discovers it; undefined outside one. */
export function readRepositoryLayout(cwd: string): RepositoryLayout | undefined {
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
      const configFiles = [join(commonDir, 'config'), join(commonDir, 'config.worktree'), join(gitDir, 'config.worktree')].map(fileIdentity).join(' ');
      return {
        dotGit: `${dotGit} ${stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'dir'} ${identity(dotGit)} ${text ?? ''}`,
        gitDir: `${gitDir} ${identity(gitDir)}`,
        commondir: commondir ?? 'none',
        commonDir: `${commonDir} ${identity(commonDir)}`,
        configFiles,
      };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
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

/**
 * The work trees of the submodules in `cwd`'s index that are there on disk. `git status`
 * looks inside each with that repository's own configuration, and the agent may have made one
 * (a repository inside the project, added as a gitlink).
 */
async function submoduleTrees(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const answer = await run('git', [...NEUTRAL_ARGS, 'ls-files', '-z', '--stage', '--', ':/'], { cwd, env });
  if (answer.exitCode !== 0) return [];
  const trees: string[] = [];
  for (const entry of answer.stdout.toString('utf8').split('\0')) {
    if (!entry.startsWith('160000 ')) continue;
    const tab = entry.indexOf('\t');
    const tree = resolve(cwd, entry.slice(tab + 1));
    if (tab !== -1 && lstatOrNull(join(tree, '.git')) !== null) trees.push(tree);
  }
  return trees;
}

/**
 * The drivers the repository's own configuration defines, and each of its submodules'
 * (switched off by name: the variables reach the git that `git status` starts in a
 * submodule), as git's config variables.
 */
async function readDriverOverrides(cwd: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const settings = await driverSettings(cwd, env);
  let level = [cwd];
  for (let depth = 0; depth < NESTING && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const dir of level) {
      for (const tree of await submoduleTrees(dir, env)) {
        settings.push(...(await driverSettings(tree, env)));
        next.push(tree);
      }
    }
    level = next;
  }
  return configVariables(driverOverrides(settings), env);
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
  const variables = await readDriverOverrides(key, env);
  known.set(key, { count, variables, layout: before?.layout ?? readRepositoryLayout(key) });
  return variables;
}

/** After Ralph's own git call in `cwd`: what it changed itself is the layout the next check starts from. */
export function noteGitCallDone(cwd: string): void {
  const entry = known.get(resolve(cwd));
  if (entry !== undefined) entry.layout = readRepositoryLayout(resolve(cwd));
}
