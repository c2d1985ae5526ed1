import { readFileSync, type BigIntStats } from 'node:fs';
import { CheckpointError } from '../checkpoint-error.js';
import { displayPath, gitText, quoteLine, runGit, underRoot, type RepoContext } from '../git/git-plumbing.js';
import { looseObjectStore } from '../git/loose-objects.js';

/**
 * The raw bytes of a checkpoint's files (and symlink targets) stored as
 * blobs: by Ralph itself for the few files that changed between iterations
 * (loose-objects.ts), by one `git hash-object` for many.
 */

/** Up to this many files (and bytes) Ralph stores their contents itself; more are read faster by one git process. */
const OWN_HASH_FILES = 256;
const OWN_HASH_BYTES = 32 * 1024 * 1024;

function unreadableFile(path: string, why: string): CheckpointError {
  return new CheckpointError(
    'unreadable-file',
    `Ralph could not read ${path ? `"${path}"` : 'a file in the project'} to save it in a checkpoint (${why}).`,
    'Make the file readable (chmod u+r) or add it to .gitignore, then start again. Or run with --no-checkpoint to go on without a safety net.',
  );
}

/** The contents of a few files stored as blobs by Ralph (see loose-objects.ts), or null when git should do it. */
function storeFiles(ctx: RepoContext, paths: readonly string[], stats: ReadonlyMap<string, BigIntStats>): string[] | null {
  const store = looseObjectStore(ctx);
  if (!store || paths.length > OWN_HASH_FILES) return null;
  let bytes = 0n;
  for (const path of paths) bytes += stats.get(path)?.size ?? 0n;
  if (bytes > BigInt(OWN_HASH_BYTES)) return null;
  return paths.map((path) => {
    let content: Buffer;
    try {
      content = readFileSync(underRoot(ctx.project, path));
    } catch (error) {
      throw unreadableFile(
        displayPath(ctx.prefix ? Buffer.from(ctx.prefix, 'utf8').toString('latin1') + path : path),
        (error as NodeJS.ErrnoException).code ?? 'unreadable',
      );
    }
    return store.write('blob', content);
  });
}

export async function hashFiles(ctx: RepoContext, paths: readonly string[], stats: ReadonlyMap<string, BigIntStats>): Promise<string[]> {
  if (paths.length === 0) return [];
  const own = storeFiles(ctx, paths, stats);
  if (own) return own;
  // From the top: hash-object does not apply the subdirectory prefix to --stdin-paths.
  const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
  const input = Buffer.from(`${paths.map((p) => quoteLine(prefix + p)).join('\n')}\n`, 'latin1');
  const result = await runGit(['hash-object', '-w', '--no-filters', '--stdin-paths'], { cwd: ctx.root, input });
  if (result.code !== 0) {
    const which = /'([^']*)'/.exec(result.stderr)?.[1];
    throw unreadableFile(which ?? '', result.stderr.trim().split('\n').pop() ?? 'git failed');
  }
  const oids = result.stdout.toString('utf8').trim().split('\n');
  if (oids.length !== paths.length) throw new Error('git hash-object returned fewer ids than paths');
  return oids;
}

export async function hashBlob(ctx: RepoContext, content: Buffer): Promise<string> {
  const store = looseObjectStore(ctx);
  if (store) return store.write('blob', content);
  return (await gitText(['hash-object', '-w', '--no-filters', '--stdin'], { cwd: ctx.root, input: content })).trim();
}
