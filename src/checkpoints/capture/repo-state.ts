import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { indexLockedError } from '../checkpoint-error.js';
import { isRalphStatePath } from '../ralph-state-paths.js';
import { gitBytes, gitText, runGit, splitZ, underRoot, type RepoContext } from '../git/git-plumbing.js';
import { hashFiles, storeBlobs } from './content-blobs.js';
import { readIndexStatsOf, statKey } from './index-stats.js';
import { looseRalphRefs, refFilesFingerprint } from '../git/ref-files.js';
import { parseTrackedListing } from './tracked-listing.js';
import type { StatCache } from './stat-cache.js';
import { lstatOrNull } from '../../infra/safe-fs.js';
import { PROJECT_FILES } from '../../core/project-layout.js';

import type { FileEntry, OpFile, RefEntry, RepoState, SubRepo } from '../../core/repo-state-model.js';

export type { FileEntry, OpFile, RefEntry, RepoState, SubRepo } from '../../core/repo-state-model.js';

/** Files and directories in the git dir that make up an operation in progress. */
export const OP_STATE_NAMES = [
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'MERGE_RR',
  'MERGE_AUTOSTASH',
  'AUTO_MERGE',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'REBASE_HEAD',
  'SQUASH_MSG',
  'ORIG_HEAD',
  'BISECT_LOG',
  'BISECT_START',
  'BISECT_TERMS',
  'BISECT_EXPECTED_REV',
  'BISECT_ANCESTORS_OK',
  'BISECT_NAMES',
  'BISECT_RUN',
  'BISECT_HEAD',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
] as const;

function readdirOrNull(path: Buffer): Buffer[] | null {
  try {
    return readdirSync(path, { encoding: 'buffer' });
  } catch {
    return null;
  }
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function readOpEntry(gitDir: string, rel: string, out: OpFile[]): void {
  const full = join(gitDir, rel);
  const st = lstatOrNull(full);
  if (!st) return;
  if (st.isDirectory()) {
    out.push({ path: rel, perm: st.mode & 0o7777, content: null });
    for (const name of readdirSync(full).sort()) readOpEntry(gitDir, `${rel}/${name}`, out);
  } else if (st.isFile()) {
    out.push({ path: rel, perm: st.mode & 0o7777, content: readFileSync(full) });
  }
}

export function readOpState(gitDir: string): OpFile[] {
  const out: OpFile[] = [];
  for (const name of OP_STATE_NAMES) readOpEntry(gitDir, name, out);
  return out;
}

/** Every ref outside refs/ralph/; the names of Ralph's own refs are added to `ralphRefs` when given. */
export async function readRefs(ctx: RepoContext, ralphRefs?: string[]): Promise<RefEntry[]> {
  const format = '%(refname)%00%(objectname)%00%(symref)%00%(objecttype)%00%(*objectname)%00%(*objecttype)';
  const text = await gitText(['for-each-ref', `--format=${format}`], { cwd: ctx.root });
  const refs: RefEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [name = '', oid = '', symref = '', type = '', peeled = '', peeledType = ''] = line.split('\0');
    if (name.startsWith('refs/ralph/')) {
      ralphRefs?.push(name);
      continue;
    }
    const commit = type === 'commit' ? oid : peeledType === 'commit' ? peeled : '';
    refs.push({ name, oid, symref, commit });
  }
  return refs;
}

/** The last listing per repository, with the fingerprint its ref files had just before. Never changed by its users. */
// Cache: the last ref listing per repository; shared safely as it is used only while the ref files
// fingerprint the same; dropped or replaced when they differ.
const lastRefs = new Map<string, { fingerprint: string; refs: RefEntry[]; ralphRefs: readonly string[] }>();

/**
 * readRefs, answered without a git process when the files that hold the refs
 * are as they were at the last listing (between iterations they usually are).
 * The names of Ralph's own refs then include those of the last listing, which
 * may be gone since: enough to choose names no ref has.
 */
export async function readRefsAgain(ctx: RepoContext, ralphRefs?: string[]): Promise<RefEntry[]> {
  const key = `${ctx.commonDir}\0${ctx.gitDir}`;
  // Taken before listing: a ref that changes meanwhile makes the next fingerprint differ.
  const fingerprint = refFilesFingerprint(ctx.commonDir, ctx.gitDir, Date.now());
  const last = lastRefs.get(key);
  if (fingerprint !== null && last?.fingerprint === fingerprint) {
    ralphRefs?.push(...new Set([...last.ralphRefs, ...looseRalphRefs(ctx.commonDir)]));
    return last.refs;
  }
  const ralph: string[] = [];
  const refs = await readRefs(ctx, ralph);
  ralphRefs?.push(...ralph);
  if (fingerprint === null) lastRefs.delete(key);
  else lastRefs.set(key, { fingerprint, refs, ralphRefs: ralph });
  return refs;
}

export function readHeadFile(ctx: RepoContext): string {
  return (readOrNull(join(ctx.gitDir, 'HEAD'))?.toString('utf8') ?? '').trim();
}

export function readStashLog(ctx: RepoContext): Buffer | null {
  return readOrNull(join(ctx.commonDir, 'logs', 'refs', 'stash'));
}

export function readIndexFile(ctx: RepoContext): Buffer | null {
  if (existsSync(join(ctx.gitDir, 'index.lock'))) throw indexLockedError(join(ctx.gitDir, 'index.lock'));
  return readOrNull(join(ctx.gitDir, 'index'));
}

async function subRepoHead(dir: Buffer): Promise<string | null> {
  const result = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: dir.toString('utf8') });
  return result.code === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** Empty leaf directories at or below `rel` (a directory git listed as wholly untracked). */
function emptyLeaves(project: string, rel: string, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  budget.left -= 1;
  let names: Buffer[];
  try {
    names = readdirSync(underRoot(project, rel), { encoding: 'buffer' });
  } catch {
    return;
  }
  if (names.length === 0) {
    out.push(rel);
    return;
  }
  for (const name of names) {
    const child = `${rel}/${name.toString('latin1')}`;
    if (lstatOrNull(underRoot(project, child))?.isDirectory()) emptyLeaves(project, child, out, budget);
  }
}

/** True when a directory git listed as untracked holds anything but directories (so it is not just empty ones). */
function holdsFiles(project: string, rel: string): boolean {
  let names: Buffer[];
  try {
    names = readdirSync(underRoot(project, rel), { encoding: 'buffer' });
  } catch {
    return false;
  }
  return names.some((name) => {
    const st = lstatOrNull(underRoot(project, `${rel}/${name.toString('latin1')}`));
    return !st?.isDirectory() || holdsFiles(project, `${rel}/${name.toString('latin1')}`);
  });
}

function gitMode(st: BigIntStats): string {
  if (st.isSymbolicLink()) return '120000';
  return Number(st.mode) & 0o100 ? '100755' : '100644';
}

function lstatBig(path: Buffer): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return null;
  }
}

/** An index up to this size (some 350 files) is checked file by file rather than by diff-files. */
const SMALL_INDEX_BYTES = 32 * 1024;

/** Projects whose last capture had untracked directories holding files. */
// Cache: projects whose last capture listed untracked directories in full, only a hint to start that
// listing early (a wrong hint costs one git call, never a wrong answer); dropped when a capture needs none.
const expandedBefore = new Set<string>();

function untrackedInFull(cwd: string): Promise<Buffer> {
  return gitBytes(['ls-files', '-z', '-o', '--exclude-standard'], { cwd });
}

export interface FileCapture {
  files: Map<string, FileEntry>;
  emptyDirs: string[];
  nested: SubRepo[];
  submodules: SubRepo[];
  indexObjects: readonly string[];
  indexView: string;
}

/**
 * Lists and hashes the project's files: tracked ones (as on disk) and untracked
 * ones git does not ignore, plus `extraPaths` when they exist (rollback passes
 * the checkpoint's files, so a file hidden by an attempt's .gitignore is still
 * seen). Ignored files and Ralph's own state are left out.
 */
export async function captureFiles(ctx: RepoContext, cache: StatCache, extraPaths: Iterable<string> = []): Promise<FileCapture> {
  const cwd = ctx.project;
  // Tracked files whose stat data no longer matches the index, checked by git in C
  // with every stat field trusted whatever the repository's settings say. A small
  // index is not worth a git process (which costs more than a few hundred lstat
  // calls): without git's answer every file is looked at here.
  const dirtyFiles =
    (lstatOrNull(join(ctx.gitDir, 'index'))?.size ?? 0) > SMALL_INDEX_BYTES
      ? gitBytes(['-c', 'core.trustctime=true', '-c', 'core.checkStat=default', '-c', 'core.ignoreStat=false', 'diff-files', '-z', '--name-only', '--', '.'], {
          cwd,
        }).catch(() => null)
      : Promise.resolve(null);
  // The full list of untracked files, started at once when the last capture of
  // this project needed it (untracked directories with files usually outlive an
  // iteration), so it runs alongside the other calls instead of after them.
  const early = expandedBefore.has(cwd) ? untrackedInFull(cwd) : null;
  early?.catch(() => undefined);
  // Tracked files (tagged H, S or M) and untracked ones (tagged ?) in one call.
  // Untracked files come collapsed (`dir/` for a wholly untracked directory, an
  // empty one or a nested repository); only the directories that hold files are
  // listed again in full. Usually there are none, which saves a git call.
  const listing = await gitBytes(['ls-files', '-z', '-t', '-s', '--cached', '-o', '--exclude-standard', '--directory'], { cwd });
  const { tracked, trackedSet, gitlinks, untracked, indexObjects, indexView } = parseTrackedListing(cwd, ctx.prefix, listing);
  // Untracked files and the paths asked for besides, each once, after the tracked ones.
  const others = new Set<string>();
  const nestedPaths: string[] = [];
  const emptyDirs: string[] = [];
  const expand: string[] = [];
  const budget = { left: 10_000 };
  for (const entry of untracked) {
    if (!entry.endsWith('/')) {
      if (!isRalphStatePath(entry)) others.add(entry);
      continue;
    }
    const dir = entry.slice(0, -1);
    if (isRalphStatePath(`${dir}/x`) && dir !== PROJECT_FILES.dir) continue;
    if (lstatOrNull(underRoot(cwd, `${dir}/.git`))) nestedPaths.push(dir);
    else if (holdsFiles(cwd, dir)) expand.push(entry);
    else emptyLeaves(cwd, dir, emptyDirs, budget);
  }
  if (expand.length > 0) {
    expandedBefore.add(cwd);
    // Listed in full (file names are bytes; a pathspec argument could not carry every name).
    const listed = await (early ?? untrackedInFull(cwd));
    for (const path of splitZ(listed)) {
      if (!expand.some((d) => path.startsWith(d))) continue;
      if (path.endsWith('/')) nestedPaths.push(path.slice(0, -1));
      else if (!isRalphStatePath(path)) others.add(path);
    }
  } else expandedBefore.delete(cwd);
  for (const path of extraPaths) if (!gitlinks.has(path) && !trackedSet.has(path)) others.add(path);

  const files = new Map<string, FileEntry>();
  const stats = new Map<string, BigIntStats>();
  const toHash: string[] = [];
  const links: string[] = [];
  const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
  const dirtyList = await dirtyFiles;
  // Without git's answer there is no shortcut: every file is looked at.
  // Git compares timestamps to the second: an entry whose inode changed in the second
  // the index was written (or the one before) could hide a same-size rewrite, so it is looked at.
  const indexPath = join(ctx.gitDir, 'index');
  const indexSecond = Math.floor((lstatOrNull(indexPath)?.mtimeMs ?? 0) / 1000);
  const indexStats = dirtyList ? readIndexStatsOf(indexPath, readOrNull(indexPath), indexSecond - 1) : null;
  const dirty = new Set(dirtyList ? splitZ(dirtyList) : []);
  const dirIsReal = new Map<string, boolean>();
  const realParents = (path: string): boolean => {
    for (let end = path.indexOf('/'); end !== -1; end = path.indexOf('/', end + 1)) {
      const dir = path.slice(0, end);
      let real = dirIsReal.get(dir);
      if (real === undefined) {
        real = lstatOrNull(underRoot(cwd, dir))?.isDirectory() ?? false;
        dirIsReal.set(dir, real);
      }
      if (!real) return false;
    }
    return true;
  };
  const consider = (path: string): void => {
    // Clean for git and recorded by us with the same stat data: unchanged, no need to look.
    const indexKey = indexStats?.get(prefix + path);
    const known = indexKey !== undefined && !dirty.has(prefix + path) ? cache.lookup(path, indexKey) : undefined;
    if (known) {
      const isLink = (known.mode & 0o170000) === 0o120000;
      files.set(path, { mode: isLink ? '120000' : known.mode & 0o100 ? '100755' : '100644', oid: known.oid, perm: isLink ? 0 : known.mode & 0o7777 });
      return;
    }
    // A file "inside" a directory that is now a symlink is not in the project: never look through the link.
    const st = realParents(path) ? lstatBig(underRoot(cwd, path)) : null;
    if (!st) {
      // A deleted tracked file may leave an empty directory git does not list as untracked.
      for (let dir = path; dir.includes('/');) {
        dir = dir.slice(0, dir.lastIndexOf('/'));
        if (!realParents(`${dir}/x`)) continue;
        const names = readdirOrNull(underRoot(cwd, dir));
        if (names === null) continue;
        if (names.length === 0 && !emptyDirs.includes(dir)) emptyDirs.push(dir);
        break;
      }
      return;
    }
    if (!(st.isFile() || st.isSymbolicLink())) return;
    stats.set(path, st);
    const cached = cache.lookup(path, statKey(st));
    if (cached && cached.mode === Number(st.mode)) {
      files.set(path, { mode: gitMode(st), oid: cached.oid, perm: st.isSymbolicLink() ? 0 : Number(st.mode) & 0o7777 });
    } else if (st.isSymbolicLink()) links.push(path);
    else toHash.push(path);
  };
  for (const path of tracked) consider(path);
  for (const path of others) consider(path);
  const [oids, linkOids] = await Promise.all([
    hashFiles(ctx, toHash),
    storeBlobs(
      ctx,
      links.map((path) => readlinkSync(underRoot(cwd, path), { encoding: 'buffer' })),
    ),
  ]);
  const record = (path: string, oid: string): void => {
    const st = stats.get(path) as BigIntStats;
    files.set(path, { mode: gitMode(st), oid, perm: st.isSymbolicLink() ? 0 : Number(st.mode) & 0o7777 });
    cache.remember(path, st, oid);
  };
  toHash.forEach((path, i) => record(path, oids[i] as string));
  links.forEach((path, i) => record(path, linkOids[i] as string));

  const submodules = await Promise.all(
    [...gitlinks].map(async ([path, indexOid]) => {
      const head = existsSync(underRoot(cwd, `${path}/.git`)) ? await subRepoHead(underRoot(cwd, path)) : null;
      files.set(path, { mode: '160000', oid: head ?? indexOid, perm: 0 });
      return { path, head };
    }),
  );
  const nested = await Promise.all(nestedPaths.map(async (path) => ({ path, head: await subRepoHead(underRoot(cwd, path)) })));
  return { files, emptyDirs: emptyDirs.sort(), nested, submodules, indexObjects, indexView };
}

/** Everything at once: files, index, HEAD, refs, stash, operation state. */
export async function captureRepoState(ctx: RepoContext, cache: StatCache, extraPaths: Iterable<string> = [], ralphRefs?: string[]): Promise<RepoState> {
  const index = readIndexFile(ctx);
  const [capture, refs] = await Promise.all([captureFiles(ctx, cache, extraPaths), readRefsAgain(ctx, ralphRefs)]);
  return {
    files: capture.files,
    emptyDirs: capture.emptyDirs,
    nested: capture.nested,
    submodules: capture.submodules,
    index,
    head: readHeadFile(ctx),
    refs,
    refsComplete: true,
    stashLog: readStashLog(ctx),
    opState: readOpState(ctx.gitDir),
    indexObjects: capture.indexObjects,
    indexView: capture.indexView,
  };
}
