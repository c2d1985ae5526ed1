import { CheckpointError } from '../checkpoint-error.js';
import { GitBatchError } from '../git/batch-helper.js';
import type { RepoContext } from '../git/git-plumbing.js';
import { objectWriter } from '../git/object-writer.js';

/**
 * The raw bytes of a checkpoint's files (and symlink targets) stored as
 * blobs by git's `hash-object --no-filters` (object-writer.ts): no clean
 * filter, no line-ending conversion, no ident.
 */

function unreadableFile(path: string, why: string): CheckpointError {
  return new CheckpointError(
    'unreadable-file',
    `Ralph could not read ${path ? `"${path}"` : 'a file in the project'} to save it in a checkpoint (${why}).`,
    'Make the file readable (chmod u+r) or add it to .gitignore, then start again. Or run with --no-checkpoint to go on without a safety net.',
  );
}

export async function hashFiles(ctx: RepoContext, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  // From the top: hash-object does not apply the subdirectory prefix to --stdin-paths.
  const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
  let oids: string[];
  try {
    oids = await objectWriter(ctx).hashPaths(paths.map((p) => prefix + p));
  } catch (error) {
    if (!(error instanceof GitBatchError)) throw error;
    const which = /'([^']*)'/.exec(error.message)?.[1];
    throw unreadableFile(which ?? '', error.message.trim().split('\n').pop() ?? 'git failed');
  }
  if (oids.length !== paths.length) throw new Error('git hash-object returned fewer ids than paths');
  return oids;
}

/** Stores bytes (symlink targets) as blobs; their ids in order. */
export async function storeBlobs(ctx: RepoContext, contents: readonly Buffer[]): Promise<string[]> {
  return objectWriter(ctx).writeBlobs(contents);
}
