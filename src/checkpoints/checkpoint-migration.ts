import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitBytes, gitText, ralphGitDir, runGit, tempName, type RepoContext } from './git/git-plumbing.js';
import { readStashLog, type RepoState } from './capture/repo-state.js';
import { readFilesTree, trailers, writeSnapshot } from './store/snapshot-commit.js';
import { StatCache } from './capture/stat-cache.js';

/**
 * Older versions of Ralph kept checkpoints in the user's stash list
 * (`ralph checkpoint: …` entries), where `git stash pop` could apply one of
 * them instead of the user's own work. They are moved to
 * refs/ralph/checkpoints/ once: converted to the current format (files, index
 * and HEAD/branch as they recorded them; nothing else was recorded, so nothing
 * else is touched when one is restored) and then dropped from the stash. The
 * user's own entries stay, in their order.
 */

const LEGACY_SUBJECT = 'ralph checkpoint:';
const CHECKPOINT_REF_PREFIX = 'refs/ralph/checkpoints/';

interface LegacyEntry {
  position: number;
  commit: string;
}

function legacyEntries(log: Buffer): LegacyEntry[] {
  const lines = log
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const entries: LegacyEntry[] = [];
  lines.forEach((line, i) => {
    const tab = line.indexOf('\t');
    const message = tab === -1 ? '' : line.slice(tab + 1);
    if (message.startsWith(LEGACY_SUBJECT)) entries.push({ position: lines.length - 1 - i, commit: line.split(' ')[1] ?? '' });
  });
  return entries;
}

async function indexBytesOf(ctx: RepoContext, tree: string): Promise<Buffer> {
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, tempName('legacy-index'));
  try {
    await gitBytes(['read-tree', tree], { cwd: ctx.root, env: { GIT_INDEX_FILE: file } });
    return readFileSync(file);
  } finally {
    rmSync(file, { force: true });
  }
}

async function convert(ctx: RepoContext, commit: string, taken: Set<string>, cache: StatCache): Promise<string | null> {
  const raw = await runGit(['cat-file', 'commit', commit], { cwd: ctx.root });
  if (raw.code !== 0) return null;
  const text = raw.stdout.toString('utf8');
  const message = text.slice(text.indexOf('\n\n') + 2);
  const t = trailers(message);
  const id0 = t.get('Ralph-Checkpoint');
  if (!id0 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id0)) return null;
  let id = id0;
  for (let n = 2; taken.has(id); n += 1) id = `${id0}-${n}`;
  const worktree = t.get('Ralph-Worktree-Tree') ?? (await gitText(['rev-parse', `${commit}^{tree}`], { cwd: ctx.root })).trim();
  const indexTree = (await gitText(['rev-parse', `${commit}^2^{tree}`], { cwd: ctx.root })).trim();
  const headSha = t.get('Ralph-Head');
  const branch = t.get('Ralph-Branch');
  const head = branch && branch !== 'detached' ? `ref: ${branch}` : (headSha ?? '');
  const state: RepoState = {
    files: await readFilesTree(ctx, worktree, ctx.prefix, new Map()),
    emptyDirs: null,
    nested: [],
    submodules: [],
    index: await indexBytesOf(ctx, indexTree),
    head,
    refs: branch && branch !== 'detached' && headSha && headSha !== 'unborn' ? [{ name: branch, oid: headSha, symref: '', commit: headSha }] : [],
    refsComplete: false,
    stashLog: null,
    opState: null,
    indexObjects: [],
    indexView: '',
  };
  const createdAt = t.get('Ralph-Created-At') ?? new Date(0).toISOString();
  const loop = Number(t.get('Ralph-Loop') ?? 0) || 0;
  const snapshot = await writeSnapshot(
    ctx,
    state,
    {
      kind: 'checkpoint',
      id,
      loop,
      createdAt,
      subject: message.split('\n')[0] ?? `${LEGACY_SUBJECT} loop ${loop}`,
      body: [`Moved from the stash list, where an older Ralph kept it (stash commit ${commit}).`],
    },
    cache,
    Date.parse(createdAt) || Date.now(),
  );
  await gitBytes(['update-ref', '-m', 'ralph: checkpoint moved out of the stash', `${CHECKPOINT_REF_PREFIX}${id}`, snapshot, ''], { cwd: ctx.root });
  taken.add(id);
  return id;
}

export async function migrateStashCheckpoints(ctx: RepoContext): Promise<{ message: string | null }> {
  const log = readStashLog(ctx);
  if (!log) return { message: null };
  const legacy = legacyEntries(log);
  if (legacy.length === 0) return { message: null };
  const taken = new Set(
    (await gitText(['for-each-ref', '--format=%(refname)', CHECKPOINT_REF_PREFIX], { cwd: ctx.root }))
      .split('\n')
      .filter(Boolean)
      .map((r) => r.slice(CHECKPOINT_REF_PREFIX.length)),
  );
  const cache = StatCache.load(ralphGitDir(ctx));
  const moved: string[] = [];
  const converted: LegacyEntry[] = [];
  for (const entry of legacy) {
    const id = await convert(ctx, entry.commit, taken, cache);
    if (id) {
      moved.push(id);
      converted.push(entry);
    }
  }
  // Highest position first, so the positions of the entries still to drop stay valid.
  for (const entry of converted.sort((a, b) => b.position - a.position)) {
    const at = `stash@{${entry.position}}`;
    const now = (await runGit(['rev-parse', '-q', '--verify', at], { cwd: ctx.root })).stdout.toString('utf8').trim();
    if (now !== entry.commit) continue;
    await gitBytes(['stash', 'drop', '-q', at], { cwd: ctx.root });
  }
  if (moved.length === 0) return { message: null };
  return {
    message: `Moved ${moved.length} Ralph checkpoint${moved.length === 1 ? '' : 's'} out of your git stash list to refs/ralph/checkpoints/ (${moved.join(', ')}); your own stash entries are unchanged. \`ralph --checkpoints\` lists them.`,
  };
}
