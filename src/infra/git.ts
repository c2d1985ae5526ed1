import { NEUTRAL_SETTINGS } from '../core/git-command-config.js';
import type { ProcessRunner, RunResult } from '../ports.js';
import { guardGitCall, noteGitCallDone } from './git-guard.js';
import { converse, run, type Conversation, type RunOutcome } from './process.js';

/**
 * Every git call Ralph makes, with one sanitized setup:
 * - no hooks and no fsmonitor: checkpoint plumbing writes refs and private
 *   index files, and a user's reference-transaction or post-index-change hook
 *   reacting to those would surprise the user and change the very state a
 *   rollback must restore exactly (an fsmonitor hook is a hook too);
 * - no signing: a key that asks for a passphrase would stall a headless run,
 *   and Ralph's snapshots are not the user's commits to vouch for;
 * - no repository or index inherited from the environment: run from a git
 *   hook or an editor, GIT_DIR or GIT_INDEX_FILE would point every call at
 *   another repository or index than the project's. Only what a call passes
 *   on purpose (a private GIT_INDEX_FILE) gets through;
 * - a fixed identity where Ralph commits for itself, so a machine without
 *   user.name still works and snapshots are recognizably Ralph's;
 * - no command of the repository's configuration: what the agent may have written there
 *   (a filter an in-tree .gitattributes points at, a pager, an external diff) never runs
 *   outside the sandbox through Ralph, and a repository whose git dir or configuration moved
 *   while the agent ran is refused (git-guard.ts).
 */

/** Ralph's own git calls never run the user's hooks. */
export const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'] as const;

/** Nor any other command the configuration names (hooks and fsmonitor are NO_HOOKS). */
export const NO_REPOSITORY_COMMANDS: readonly string[] = NEUTRAL_SETTINGS.filter(([key]) => key !== 'core.hooksPath' && key !== 'core.fsmonitor').flatMap(
  ([key, value]) => ['-c', `${key}=${value}`],
);

/** Nor sign what they create. */
export const NO_SIGNING = ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false'] as const;

/** Variables that would point git at another repository or index than the one we mean. */
const REPO_SELECTORS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY'];

export interface GitIdentity {
  name: string;
  email: string;
}

/** Who Ralph's checkpoint commits are by. */
export const RALPH_IDENTITY: GitIdentity = { name: 'Ralph', email: 'ralph@localhost' };

export interface GitSetup {
  /** Variables set on purpose, e.g. GIT_INDEX_FILE for a private index. */
  env?: Record<string, string>;
  /** Author and committer of what the call creates, instead of the repository's user. */
  identity?: GitIdentity;
  /** Author and committer date (ms since the epoch), for commits that must not depend on the clock. */
  at?: number;
  /**
   * 'user' keeps the user's hooks and fsmonitor: for a commit made on the
   * user's behalf in the user's repository (the project's first commit).
   */
  hooks?: 'off' | 'user';
}

/** The environment of a git call: `base` without inherited repository selectors, plus the call's identity and variables. */
export function gitEnvironment(base: NodeJS.ProcessEnv, setup: GitSetup = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of REPO_SELECTORS) delete env[name];
  if (setup.identity) {
    env['GIT_AUTHOR_NAME'] = setup.identity.name;
    env['GIT_AUTHOR_EMAIL'] = setup.identity.email;
    env['GIT_COMMITTER_NAME'] = setup.identity.name;
    env['GIT_COMMITTER_EMAIL'] = setup.identity.email;
  }
  if (setup.at !== undefined) {
    const date = `@${Math.floor(setup.at / 1000)} +0000`;
    env['GIT_AUTHOR_DATE'] = date;
    env['GIT_COMMITTER_DATE'] = date;
  }
  return { ...env, ...setup.env };
}

/** git's arguments: the setup's config first, then the command. */
export function gitArguments(args: readonly string[], setup: GitSetup = {}): string[] {
  return [...(setup.hooks === 'user' ? [] : [...NO_HOOKS, ...NO_REPOSITORY_COMMANDS]), ...NO_SIGNING, ...args];
}

export interface GitBytesCall extends GitSetup {
  cwd: string;
  input?: Buffer | string;
}

/** git with bytes in and out (paths are bytes to git), for checkpoint plumbing. */
export async function runGitBytes(args: readonly string[], call: GitBytesCall): Promise<RunOutcome> {
  const env = await guardedEnvironment(call);
  try {
    return await run('git', gitArguments(args, call), { cwd: call.cwd, env, ...(call.input !== undefined ? { input: call.input } : {}) });
  } finally {
    if (call.hooks !== 'user') noteGitCallDone(call.cwd);
  }
}

export interface GitConversationCall extends GitSetup {
  cwd: string;
  onStdout: (bytes: Buffer) => void;
}

/**
 * A git command that answers a stream of requests (`mktree --batch`,
 * `hash-object --stdin-paths`, `update-ref --stdin`, `cat-file --batch`), set
 * up like every other call. Its `finish()` closes stdin and waits for its exit.
 */
export async function converseWithGit(args: readonly string[], call: GitConversationCall): Promise<Conversation> {
  const env = await guardedEnvironment(call);
  const conversation = converse('git', gitArguments(args, call), { cwd: call.cwd, env, onStdout: call.onStdout });
  if (call.hooks !== 'user') void conversation.ended.then(() => noteGitCallDone(call.cwd));
  return conversation;
}

/** The call's environment, with the repository's own drivers switched off once its repository is checked. */
async function guardedEnvironment(call: GitSetup & { cwd: string }): Promise<NodeJS.ProcessEnv> {
  const env = gitEnvironment(process.env, call);
  // A commit on the user's behalf (before any agent ran) is git as the user has it.
  if (call.hooks === 'user') return env;
  // The environment's external diff would win over the configuration's.
  delete env['GIT_EXTERNAL_DIFF'];
  return { ...env, GIT_PAGER: 'cat', ...(await guardGitCall(call.cwd, env)) };
}

export interface GitTextCall extends GitSetup {
  cwd: string;
  input?: string;
}

/** git through the ProcessRunner port (text output; tests pass a fake runner). */
export async function runGitText(runner: ProcessRunner, args: readonly string[], call: GitTextCall): Promise<RunResult> {
  const env = await guardedEnvironment(call);
  try {
    return await runner.run('git', gitArguments(args, call), { cwd: call.cwd, env, ...(call.input !== undefined ? { input: call.input } : {}) });
  } finally {
    if (call.hooks !== 'user') noteGitCallDone(call.cwd);
  }
}

/**
 * Local config for a repository Ralph creates for itself (the demo, a test
 * workspace): whoever commits there later, the agent included, needs no global
 * identity and is never asked for a signature.
 */
export function ownRepositoryConfig(identity: GitIdentity): Array<[key: string, value: string]> {
  return [
    ['user.name', identity.name],
    ['user.email', identity.email],
    ['commit.gpgsign', 'false'],
  ];
}
