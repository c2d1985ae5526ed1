import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import type { RepoContext } from '../../infra/git-repository.js';
import { runGitBytes, type GitBytesCall } from '../../infra/git.js';

export { repoContext, type RepoContext } from '../../infra/git-repository.js';
export { underRoot } from '../../infra/safe-fs.js';

/**
 * Git as Ralph's checkpoints use it: bytes in, bytes out, through the one
 * sanitized git setup of git.ts (no hooks, no signing, no inherited index).
 *
 * File names are bytes (git does not require UTF-8), so every path list is
 * NUL-separated and every path is carried as a "binary string": one char per
 * byte (latin1), which round-trips any byte sequence exactly.
 */

export interface GitRaw {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitPlumbingError extends Error {
  override name = 'GitPlumbingError';
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export async function runGit(args: readonly string[], options: GitBytesCall): Promise<GitRaw> {
  const result = await runGitBytes(args, options);
  if (result.failure !== undefined) return { code: -1, stdout: Buffer.alloc(0), stderr: result.failure };
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

export async function gitBytes(args: readonly string[], options: GitBytesCall): Promise<Buffer> {
  const result = await runGit(args, options);
  if (result.code !== 0) {
    throw new GitPlumbingError(`git ${args[0] ?? ''} failed: ${result.stderr.trim() || `exit code ${result.code}`}`, result.stderr);
  }
  return result.stdout;
}

export async function gitText(args: readonly string[], options: GitBytesCall): Promise<string> {
  return (await gitBytes(args, options)).toString('utf8');
}

/** Splits NUL-terminated output into binary strings (one char per byte). */
export function splitZ(buffer: Buffer): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i += 1) {
    if (buffer[i] === 0) {
      if (i > start) parts.push(buffer.toString('latin1', start, i));
      start = i + 1;
    }
  }
  if (start < buffer.length) parts.push(buffer.toString('latin1', start));
  return parts;
}

export function binary(path: string): Buffer {
  return Buffer.from(path, 'latin1');
}

/** A binary path as a person reads it (UTF-8 where it is UTF-8). */
export function displayPath(path: string): string {
  return binary(path).toString('utf8');
}

/**
 * C-style quoting for the line-based `--stdin-paths` of hash-object: only names
 * with a newline, a backslash or a leading quote need it; other bytes pass raw.
 */
export function quoteLine(path: string): string {
  if (!/[\n"\\]/.test(path) && !/[\x00-\x1f\x7f]/.test(path)) return path;
  let out = '"';
  for (let i = 0; i < path.length; i += 1) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x22 || code === 0x5c) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += path[i];
  }
  return `${out}"`;
}

/**
 * The name of the linked worktree `ctx` is in (git's own name for it, the last part of its git
 * dir), or undefined in the main worktree. Loops in several worktrees of one repository share
 * its refs; their checkpoints carry this name so each loop keeps to its own.
 */
export function worktreeName(ctx: RepoContext): string | undefined {
  return ctx.gitDir === ctx.commonDir ? undefined : basename(ctx.gitDir);
}

/** Ralph's private area inside the git dir: temporary index files, caches, the rollback journal. */
export function ralphGitDir(ctx: RepoContext): string {
  return join(ctx.gitDir, 'ralph');
}

/** A name for a temporary file of this process inside Ralph's git-dir area (removed at the next start when a crash leaves it). */
export function tempName(kind: string): string {
  return `tmp-${process.pid}-${randomBytes(6).toString('hex')}-${kind}`;
}

/** The process that made a file named by tempName (or kept a private index, as older versions did). */
export const PROCESS_FILE = /^(?:tmp|kept)-(\d+)-/;
