import { lstatSync } from 'node:fs';
import { ExitCode, RalphError, errorMessage } from '../errors.js';
import { CheckpointError, checkpointFailure, type CheckpointFailure } from './checkpoint-error.js';
import type { Checkpoint } from '../state/documents/checkpoint.js';
import { migrateStashCheckpoints } from './checkpoint-migration.js';
import { gitBytes, gitText, ralphGitDir, repoContext, tempName, worktreeName, type RepoContext } from './git/git-plumbing.js';
import { ATTEMPT_REF_PREFIX, finishInterruptedRollback, removeLeftovers, rollbackWith, type RollbackResult } from './rollback/git-rollback.js';
import type { GitWorkspace } from '../infra/git-workspace.js';
import { withObjectWriter } from './git/object-writer.js';
import { fileRefs, type RalphRefWriter } from './git/ralph-refs.js';
import { refsAtMost } from './git/ref-files.js';
import { captureRepoState, readRefsAgain, readStashLog, type RepoState } from './capture/repo-state.js';
import type { AttemptEnd } from './rollback/rollback-scope.js';
import { PREFIX_TRAILER, trailers, WORKTREE_TRAILER, writeSnapshot } from './store/snapshot-commit.js';
import { StatCache } from './capture/stat-cache.js';
import { forgetKeptTrees } from './store/files-tree.js';

/**
 * Checkpoints: snapshot commits under Ralph's own refs,
 * `refs/ralph/checkpoints/<id>` — never in the user's stash list, so
 * `git stash pop` always gives back the user's own work. Each records the
 * Ralph project's directory (only that directory in a monorepo) as raw bytes
 * with exact permission bits, plus the index, HEAD, every ref, the stash
 * entries and any operation in progress; see snapshot-commit.ts. Making one
 * changes nothing: not the work tree, not the index, not a ref of the user's,
 * and no hook of the user's runs.
 */
export type { Checkpoint } from '../state/documents/checkpoint.js';
export { CheckpointError, type CheckpointFailure } from './checkpoint-error.js';
export { ATTEMPT_REF_PREFIX, restoreCommandFor, type RollbackOptions, type RollbackResult } from './rollback/git-rollback.js';
export type { AttemptEnd } from './rollback/rollback-scope.js';

export const CHECKPOINT_REF_PREFIX = 'refs/ralph/checkpoints/';
export const CHECKPOINT_SUBJECT = 'ralph checkpoint:';
export const NOT_A_REPOSITORY = 'not a git repository';
export type Failure = CheckpointFailure;
export type Warn = (message: string) => void;
const NOT_REPO: Failure = { ok: false, reason: NOT_A_REPOSITORY, problem: 'not-a-repository' };
const noWarn: Warn = () => undefined;

/**
 * What every entry point does first: finish a rollback a crash cut short,
 * remove temporary files a killed run left, and move checkpoints that older
 * versions kept in the stash to Ralph's refs.
 */
export async function prepareRepository(ctx: RepoContext, warn: Warn, options: { write: boolean } = { write: true }): Promise<void> {
  checkStateDir(ctx);
  removeLeftovers(ctx);
  await withObjectWriter(ctx, async (scoped) => {
    const resumed = await finishInterruptedRollback(scoped, options);
    if (resumed.message) warn(resumed.message);
    const moved = await migrateStashCheckpoints(scoped);
    if (moved.message) warn(moved.message);
  });
}

/** `write: false` for listings: an interrupted rollback is only mentioned, the work tree is never written. */
/** The folder in the git dir where Ralph keeps its journal and cache must be one: anything else is named, with what to do. */
function checkStateDir(ctx: RepoContext): void {
  const dir = ralphGitDir(ctx);
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st || st.isDirectory()) return;
  throw new RalphError(
    `${dir} is not a folder: Ralph keeps the rollback journal and its cache of file ids there.`,
    ExitCode.RuntimeError,
    `Move it out of the way (mv '${dir}' '${dir}.bak') and start again; Ralph makes a new one. Checkpoints and saved attempts are refs, not in that folder: nothing is lost.`,
  );
}

async function context(ws: GitWorkspace, warn: Warn, options: { write: boolean } = { write: true }): Promise<RepoContext | null> {
  const ctx = await repoContext(ws.projectDir);
  if (ctx) await prepareRepository(ctx, warn, options);
  return ctx;
}

/**
 * The refs and stash as an attempt left them: read right after the agent call,
 * so a rollback can tell the attempt's ref changes from later ones. Usually
 * answered from the ref files' stat data without a git process.
 */
export async function readAttemptEnd(ws: GitWorkspace): Promise<AttemptEnd | null> {
  const ctx = await repoContext(ws.projectDir);
  if (!ctx) return null;
  return { refs: await readRefsAgain(ctx), stashLog: readStashLog(ctx) };
}

/** For `ralph` and the other commands at start: the same preparation, when the project is a repository. */
export async function prepareProjectRepository(projectDir: string, warn: Warn): Promise<void> {
  const ctx = await repoContext(projectDir);
  if (ctx) await prepareRepository(ctx, warn);
}

function headFacts(state: RepoState): { head: string | null; branch: string | null } {
  if (state.head.startsWith('ref: ')) {
    const branch = state.head.slice(5);
    return { branch, head: state.refs?.find((r) => r.name === branch)?.oid ?? null };
  }
  return { branch: null, head: /^[0-9a-f]{40,64}$/.test(state.head) ? state.head : null };
}

// ------------------------------------------------------------------ create

export interface CreateCheckpointOptions {
  loop: number;
  /** Epoch ms; dates the commits and names the checkpoint. */
  now: number;
  /** Text after `ralph checkpoint:` (default `loop N`). */
  label?: string;
  warn?: Warn;
}

async function refNames(ctx: RepoContext, prefix: string): Promise<string[]> {
  return (await gitText(['for-each-ref', '--format=%(refname)', prefix], { cwd: ctx.root })).split('\n').filter(Boolean);
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Who writes the checkpoints' own refs: see ralph-refs.ts for the measured reason it is not git alone. */
const RALPH_REFS: RalphRefWriter = fileRefs;

const MISSING_OBJECT = /missing|invalid object|not a valid object|bad object|unable to read|is unavailable/i;

async function snapshotNow(ctx: RepoContext, options: CreateCheckpointOptions): Promise<{ checkpoint: Checkpoint; cache: StatCache }> {
  const loop = Math.max(0, Math.floor(options.loop));
  const message = `${CHECKPOINT_SUBJECT} ${options.label ?? `loop ${loop}`}`;
  const createdAt = new Date(options.now).toISOString();
  for (let round = 0; ; round += 1) {
    const cache = StatCache.load(ralphGitDir(ctx));
    if (round > 0) cache.clear();
    try {
      RALPH_REFS.prepare(ctx, `ralph: ${message}`);
      const ralphRefs: string[] = [];
      const state = await captureRepoState(ctx, cache, [], ralphRefs);
      const taken = new Set(ralphRefs.filter((r) => r.startsWith(CHECKPOINT_REF_PREFIX)).map((r) => r.slice(CHECKPOINT_REF_PREFIX.length)));
      // Loops in other worktrees of the repository make checkpoints in the same refs, maybe in the same millisecond.
      const worktree = worktreeName(ctx);
      const id = uniqueId(`cp${loop}-${options.now.toString(36)}${worktree ? `-${worktree}` : ''}`, taken);
      const commit = await writeSnapshot(
        ctx,
        state,
        {
          kind: 'checkpoint',
          id,
          loop,
          createdAt,
          subject: message,
          body: ['Saved by Ralph before an iteration. `ralph --checkpoints` lists checkpoints; `ralph --restore <id>` brings one back.'],
        },
        cache,
        options.now,
      );
      const ref = `${CHECKPOINT_REF_PREFIX}${id}`;
      await RALPH_REFS.create(ctx, ref, commit, `ralph: ${message}`);
      return { checkpoint: { id, loop, message, createdAt, ...headFacts(state), commit }, cache };
    } catch (error) {
      // A cached id whose object was pruned since: hash everything again, once.
      if (round === 0 && !(error instanceof CheckpointError) && MISSING_OBJECT.test(errorMessage(error))) {
        forgetKeptTrees(ctx);
        continue;
      }
      throw error;
    }
  }
}

export async function createCheckpoint(ws: GitWorkspace, options: CreateCheckpointOptions): Promise<{ ok: true; checkpoint: Checkpoint } | Failure> {
  try {
    const ctx = await context(ws, options.warn ?? noWarn);
    if (!ctx) return NOT_REPO;
    const { checkpoint, cache } = await withObjectWriter(ctx, (scoped) => snapshotNow(scoped, options));
    cache.save(Date.now(), tempName('cache'));
    return { ok: true, checkpoint };
  } catch (error) {
    if (error instanceof CheckpointError) return checkpointFailure(error);
    if (error instanceof RalphError && error.hint) return checkpointFailure(new CheckpointError('git-failed', error.message, error.hint));
    return checkpointFailure(
      new CheckpointError(
        'git-failed',
        `Ralph could not record a checkpoint: ${errorMessage(error)}.`,
        'Check that `git status` works in this project, fix what it reports, and start again; or run with --no-checkpoint to go on without a safety net.',
      ),
    );
  }
}

// ------------------------------------------------------------------ list, drop, prune

export interface CheckpointListing extends Checkpoint {
  ref: string;
}

export interface AttemptRef {
  /** The attempt's files (`git restore --source=<ref> -- <path>`). */
  ref: string;
  commit: string;
  date: string;
  subject: string;
}

/** HEAD's commit at the checkpoint: HEAD itself when detached, else the commit its branch pointed at. */
function headCommitOf(rawHead: string, headCommit: string | undefined): string | null {
  const hex = /^[0-9a-f]{40,64}$/;
  if (hex.test(rawHead)) return rawHead;
  return headCommit !== undefined && hex.test(headCommit) ? headCommit : null;
}

async function readCheckpoints(ctx: RepoContext): Promise<CheckpointListing[]> {
  const format = '%(refname)%00%(objectname)%00%(contents)%00%00';
  const text = await gitText(['for-each-ref', `--format=${format}`, CHECKPOINT_REF_PREFIX], { cwd: ctx.root });
  const list: CheckpointListing[] = [];
  const worktree = worktreeName(ctx);
  for (const record of text.split('\0\0\n')) {
    const [ref = '', commit = '', contents = ''] = record.split('\0');
    if (!ref.startsWith(CHECKPOINT_REF_PREFIX)) continue;
    const t = trailers(contents);
    // Another worktree's checkpoints, or another project's in the same repository, are its
    // loop's: never listed, pruned or restored from here.
    if (t.get(WORKTREE_TRAILER) !== worktree || (t.get(PREFIX_TRAILER) ?? '.') !== (ctx.prefix || '.')) continue;
    const rawHead = t.get('Ralph-Head') ?? '';
    const id = ref.slice(CHECKPOINT_REF_PREFIX.length);
    list.push({
      ref,
      id,
      loop: Number(t.get('Ralph-Loop') ?? 0) || 0,
      message: contents.split('\n')[0] ?? '',
      createdAt: t.get('Ralph-Created-At') ?? new Date(0).toISOString(),
      head: headCommitOf(rawHead, t.get('Ralph-Head-Commit')),
      branch: rawHead.startsWith('ref: ') ? rawHead.slice(5) : null,
      commit,
    });
  }
  return list.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function listAttempts(ctx: RepoContext): Promise<AttemptRef[]> {
  const out = await gitText(
    ['for-each-ref', '--sort=creatordate', '--format=%(refname)%00%(objectname)%00%(creatordate:iso-strict)%00%(subject)', ATTEMPT_REF_PREFIX],
    { cwd: ctx.root },
  );
  return out
    .split('\n')
    .filter((l) => l.length > 0)
    .map((line) => {
      const [ref = '', commit = '', date = '', subject = ''] = line.split('\0');
      return { ref, commit, date, subject };
    })
    .filter((a) => a.ref.endsWith('/files'));
}

/** Our checkpoints (oldest first) and the saved attempts. */
export async function listCheckpoints(
  ws: GitWorkspace,
  options: { warn?: Warn } = {},
): Promise<{ ok: true; checkpoints: CheckpointListing[]; attempts: AttemptRef[] } | Failure> {
  try {
    const ctx = await context(ws, options.warn ?? noWarn, { write: false });
    if (!ctx) return NOT_REPO;
    return { ok: true, checkpoints: await readCheckpoints(ctx), attempts: await listAttempts(ctx) };
  } catch (error) {
    return { ok: false, reason: error instanceof RalphError && error.hint ? `${error.message} ${error.hint}` : errorMessage(error) };
  }
}

async function deleteRefs(ctx: RepoContext, refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  await gitBytes(['update-ref', '-z', '--stdin'], { cwd: ctx.root, input: refs.map((r) => `delete ${r}\0\0`).join('') });
}

export async function dropCheckpoint(
  ws: GitWorkspace,
  checkpoint: Checkpoint | string,
  _options: { warn?: Warn } = {},
): Promise<{ ok: true; dropped: boolean } | Failure> {
  try {
    const ctx = await repoContext(ws.projectDir);
    if (!ctx) return NOT_REPO;
    const id = typeof checkpoint === 'string' ? checkpoint : checkpoint.id;
    const ref = `${CHECKPOINT_REF_PREFIX}${id}`;
    if (typeof checkpoint !== 'string') {
      // One step: deleting with the expected value fails when the ref is already gone.
      if (await RALPH_REFS.remove(ctx, ref, checkpoint.commit)) return { ok: true, dropped: true };
    }
    const existed = (await refNames(ctx, ref)).includes(ref);
    if (existed) await deleteRefs(ctx, [ref]);
    return { ok: true, dropped: existed };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

/**
 * The loop's prune after every iteration: usually the checkpoint was dropped
 * and there are no more than `keep`, which the ref files tell without listing
 * (and reading) every checkpoint through git.
 */
export async function pruneExcessCheckpoints(ws: GitWorkspace, keep: number, options: { warn?: Warn } = {}): Promise<{ ok: true } | Failure> {
  try {
    const ctx = await repoContext(ws.projectDir);
    if (!ctx) return NOT_REPO;
    const atMost = refsAtMost(ctx.commonDir, CHECKPOINT_REF_PREFIX);
    if (atMost !== undefined && atMost <= Math.max(0, Math.floor(keep))) return { ok: true };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
  return pruneCheckpoints(ws, keep, options);
}

/** Keeps the newest `keep` checkpoints and deletes the rest (their attempts stay). */
export async function pruneCheckpoints(
  ws: GitWorkspace,
  keep: number,
  options: { warn?: Warn } = {},
): Promise<{ ok: true; dropped: string[]; kept: string[] } | Failure> {
  try {
    const ctx = await context(ws, options.warn ?? noWarn);
    if (!ctx) return NOT_REPO;
    const all = await readCheckpoints(ctx);
    const doomed = all.slice(0, Math.max(0, all.length - Math.max(0, Math.floor(keep))));
    await deleteRefs(
      ctx,
      doomed.map((c) => c.ref),
    );
    return { ok: true, dropped: doomed.map((c) => c.id), kept: all.slice(doomed.length).map((c) => c.id) };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

// ------------------------------------------------------------------ rollback and restore

export async function rollbackToCheckpoint(
  ws: GitWorkspace,
  cp: Checkpoint,
  options: { attemptLabel: string; now?: number; warn?: Warn; onStep?: (step: string) => void; attemptEnd?: AttemptEnd | null },
): Promise<RollbackResult> {
  let ctx: RepoContext | null;
  try {
    ctx = await context(ws, options.warn ?? noWarn);
  } catch (error) {
    return { ok: false, reason: `${errorMessage(error)}; nothing was changed` };
  }
  if (!ctx) return NOT_REPO;
  const { attemptEnd, ...rest } = options;
  return withObjectWriter(ctx, (scoped) => rollbackWith(scoped, cp, { ...rest, ...(attemptEnd ? { attemptEnd } : {}) }));
}

/** The checkpoint `id` names: exactly, as the only id it starts, or by a commit prefix of 7+ characters. */
export function findCheckpoint<T extends Checkpoint>(list: readonly T[], id: string): T | string {
  const exact = list.find((c) => c.id === id);
  if (exact) return exact;
  const matches = list.filter((c) => c.id.startsWith(id) || (id.length >= 7 && c.commit.startsWith(id)));
  if (matches.length === 1) return matches[0] as T;
  if (matches.length > 1) return `"${id}" matches ${matches.length} checkpoints (${matches.map((c) => c.id).join(', ')}); give more of the id`;
  return `no checkpoint "${id}"; \`ralph --checkpoints\` lists them`;
}

export type RestoreResult =
  (Extract<RollbackResult, { ok: true }> & { checkpoint: Checkpoint; safety: Checkpoint }) | Failure | Extract<RollbackResult, { ok: false }>;

/** `ralph --restore ID`: checkpoints the present first, then rolls back to ID. */
export async function restoreCheckpoint(ws: GitWorkspace, id: string, options: { now: number; loop?: number; warn?: Warn }): Promise<RestoreResult> {
  const listing = await listCheckpoints(ws, options.warn ? { warn: options.warn } : {});
  if (!listing.ok) return listing;
  const cp = findCheckpoint(listing.checkpoints, id);
  if (typeof cp === 'string') return { ok: false, reason: cp };
  const safety = await createCheckpoint(ws, {
    loop: options.loop ?? cp.loop,
    now: options.now,
    label: `before restore of ${cp.id}`,
    ...(options.warn ? { warn: options.warn } : {}),
  });
  if (!safety.ok) return { ok: false, reason: `could not checkpoint the present state first (${safety.reason}); nothing was changed` };
  const result = await rollbackToCheckpoint(ws, cp, {
    attemptLabel: `state before restore of ${cp.id}`,
    now: options.now,
    ...(options.warn ? { warn: options.warn } : {}),
  });
  if (!result.ok) return result;
  return { ...result, checkpoint: cp, safety: safety.checkpoint };
}
