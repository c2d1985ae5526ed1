import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { indexLockedError } from '../checkpoint-error.js';
import { binary, gitBytes, ralphGitDir, runGit, splitZ, tempName, underRoot, type RepoContext } from '../git/git-plumbing.js';
import { OP_STATE_NAMES, captureFiles, readHeadFile, readOpState, readRefs, type FileCapture, type RepoState } from '../capture/repo-state.js';
import { SafeTree } from '../../infra/safe-fs.js';
import { catBlobs } from '../store/snapshot-commit.js';
import { RALPH_IDENTITY } from '../../infra/git.js';
import { movesStillValid, type RefLeft, type RefMove } from '../../core/rollback-ref-scope.js';
import type { StashChange } from './rollback-scope.js';
import type { StatCache } from '../capture/stat-cache.js';

/**
 * Makes the repository hold a recorded state: files (bytes, modes, deletions),
 * empty directories, submodule HEADs, the index, refs, HEAD, the stash and
 * operation state. Every step reads the present afresh and changes only what
 * differs, so running it again after an interruption finishes the job.
 * Ignored files are never touched; nothing goes through a symlink.
 */

/** A report of nothing applied yet (`leftRefs` named up front when a rollback leaves refs before it starts). */
export function emptyApplyReport(leftRefs: ApplyReport['leftRefs'] = []): ApplyReport {
  return {
    written: [],
    deleted: [],
    chmodded: [],
    keptIgnored: [],
    displaced: [],
    unrestored: [],
    reopened: [],
    movedRefs: [],
    leftRefs,
    stashLeft: false,
    notes: [],
  };
}

export interface ApplyReport {
  /** Files written back (changed or deleted by the attempt), binary paths relative to the project. */
  written: string[];
  /** Files the attempt created, removed. */
  deleted: string[];
  /** Files whose permission bits alone were put back. */
  chmodded: string[];
  /** Files the attempt created that the restored .gitignore ignores: left in place. */
  keptIgnored: string[];
  /** Things in the way that were not the attempt's to delete, moved aside. */
  displaced: string[];
  /** What could not be restored, in plain words. */
  unrestored: string[];
  /** Directories whose owner had lost access, given it back. */
  reopened: string[];
  /** Refs moved back (compare-and-swap). */
  movedRefs: RefMove[];
  /** Refs that differ from the checkpoint and were left as they are. */
  leftRefs: RefLeft[];
  /** The stash was changed by someone while the rollback ran: left as it is. */
  stashLeft: boolean;
  /** What the rollback does not restore but the user should know (nested repositories' own changes). */
  notes: string[];
}

export type StepHook = (step: string) => void;

const isIgnoreFile = (p: string): boolean => basename(binary(p).toString('utf8')) === '.gitignore';

async function ignoredNow(ctx: RepoContext, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await runGit(['check-ignore', '--no-index', '-z', '--stdin'], {
    cwd: ctx.project,
    input: Buffer.from(paths.map((p) => `${p}\0`).join(''), 'latin1'),
  });
  if (result.code !== 0 && result.code !== 1) throw new Error(`git check-ignore failed: ${result.stderr.trim()}`);
  return new Set(splitZ(result.stdout));
}

async function blobContents(ctx: RepoContext, oids: Iterable<string>): Promise<Map<string, Buffer>> {
  const list = [...new Set(oids)];
  const contents = await catBlobs(ctx, list);
  const map = new Map<string, Buffer>();
  list.forEach((oid, i) => {
    const content = contents[i];
    if (!content) throw new Error(`the checkpoint's object ${oid.slice(0, 12)} is missing from the repository`);
    map.set(oid, content);
  });
  return map;
}

function parentDirs(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

interface FilePlan {
  deletes: string[];
  writes: string[];
  chmods: string[];
}

function planFiles(target: RepoState, present: FileCapture): FilePlan {
  const plan: FilePlan = { deletes: [], writes: [], chmods: [] };
  for (const [path, entry] of present.files) if (entry.mode !== '160000' && !target.files.has(path)) plan.deletes.push(path);
  for (const [path, want] of target.files) {
    if (want.mode === '160000') continue;
    const have = present.files.get(path);
    if (!have || have.mode !== want.mode || have.oid !== want.oid) plan.writes.push(path);
    else if (have.perm !== want.perm) plan.chmods.push(path);
  }
  plan.deletes.sort();
  plan.writes.sort();
  return plan;
}

/** Where the attempt is kept, so nothing is deleted that it does not hold. */
export interface AttemptPlace {
  ref: string;
  commit: string;
}

/**
 * Adds to the saved attempt the files about to be deleted that it does not
 * hold yet: files the attempt's own .gitignore hid until the rules were put
 * back, or files that appeared after a crash cut a rollback short. A deletion
 * never loses anything.
 */
async function keepInAttempt(ctx: RepoContext, attempt: AttemptPlace, present: FileCapture, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
  const current = (await gitBytes(['rev-parse', attempt.ref], { cwd: ctx.root })).toString('utf8').trim() || attempt.commit;
  const held = new Set(splitZ(await gitBytes(['ls-tree', '-r', '-z', '--name-only', '--full-tree', current], { cwd: ctx.root })));
  const missing = paths.filter((p) => !held.has(prefix + p));
  if (missing.length === 0) return;
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const index = join(dir, tempName('attempt-index'));
  try {
    const env = { GIT_INDEX_FILE: index };
    await gitBytes(['read-tree', current], { cwd: ctx.root, env });
    const input = missing.map((p) => {
      const e = present.files.get(p) as { mode: string; oid: string };
      return `${e.mode} ${e.oid}\t${prefix}${p}\0`;
    });
    await gitBytes(['update-index', '-z', '--index-info'], { cwd: ctx.root, env, input: Buffer.from(input.join(''), 'latin1') });
    const tree = (await gitBytes(['write-tree'], { cwd: ctx.root, env })).toString('utf8').trim();
    const message = `ralph attempt: files found while rolling back\n\nFiles that were not visible when the attempt was saved (hidden by its .gitignore,\nor created after a rollback was interrupted), kept before Ralph removed them.\n`;
    const commit = (await gitBytes(['commit-tree', tree, '-p', current], { cwd: ctx.root, input: message, identity: RALPH_IDENTITY, at: Date.now() }))
      .toString('utf8')
      .trim();
    await gitBytes(['update-ref', '-m', 'ralph: files kept before a rollback removed them', attempt.ref, commit, current], { cwd: ctx.root });
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
}

async function applyFiles(
  ctx: RepoContext,
  target: RepoState,
  first: FileCapture,
  report: ApplyReport,
  suffix: string,
  step: StepHook,
  attempt: AttemptPlace | null,
  cache: StatCache,
): Promise<FileCapture> {
  let present = first;
  let plan = planFiles(target, present);
  const ignoreWrites = plan.writes.filter(isIgnoreFile);
  const ignoreDeletes = plan.deletes.filter(isIgnoreFile);
  const contentsOf = async (paths: readonly string[]): Promise<Map<string, Buffer>> =>
    blobContents(
      ctx,
      paths.map((p) => (target.files.get(p) as { oid: string }).oid),
    );
  const aside = join(ralphGitDir(ctx), 'displaced', `${suffix}-${Date.now().toString(36)}`);
  let tree = new SafeTree(ctx.project, (p) => present.files.has(p), suffix, aside);
  const write = (contents: Map<string, Buffer>, path: string): void => {
    const want = target.files.get(path) as { mode: string; oid: string; perm: number };
    tree.writeFile(path, contents.get(want.oid) as Buffer, want.perm, want.mode === '120000');
    report.written.push(path);
  };
  // The restored ignore rules decide what counts as the attempt's file and what is ignored.
  if (ignoreWrites.length > 0 || ignoreDeletes.length > 0) {
    if (attempt) await keepInAttempt(ctx, attempt, present, ignoreDeletes);
    for (const path of ignoreDeletes) if (tree.remove(path)) report.deleted.push(path);
    const ignoreContents = await contentsOf(ignoreWrites);
    for (const path of ignoreWrites) write(ignoreContents, path);
    // What the attempt's rules hid may be visible now: look again.
    present = await captureFiles(ctx, cache, target.files.keys());
    plan = planFiles(target, present);
    report.displaced.push(...tree.report.displaced);
    report.reopened.push(...tree.report.reopened);
    tree = new SafeTree(ctx.project, (p) => present.files.has(p), suffix, aside);
  }
  step('ignore-rules');
  const candidates = plan.deletes.filter((p) => !isIgnoreFile(p));
  const ignored = await ignoredNow(ctx, candidates);
  const doomed = candidates.filter((p) => !ignored.has(p));
  if (attempt) await keepInAttempt(ctx, attempt, present, doomed);
  const keepDirs = new Set(target.emptyDirs ?? []);
  report.keptIgnored.push(...candidates.filter((p) => ignored.has(p)));
  for (const path of doomed) {
    if (tree.remove(path)) {
      report.deleted.push(path);
      tree.removeEmptyDir(parentDirs(path), (d) => keepDirs.has(d));
    }
  }
  step('deleted');
  const rest = plan.writes.filter((p) => !isIgnoreFile(p));
  const contents = await contentsOf(rest);
  for (const path of rest) write(contents, path);
  step('written');
  for (const path of plan.chmods) {
    tree.chmod(path, (target.files.get(path) as { perm: number }).perm);
    report.chmodded.push(path);
  }
  if (target.emptyDirs !== null) {
    for (const dir of target.emptyDirs) tree.mkdirs(dir);
    for (const dir of present.emptyDirs) if (!keepDirs.has(dir)) tree.removeEmptyDir(dir, (d) => keepDirs.has(d));
  }
  report.displaced.push(...tree.report.displaced);
  report.reopened.push(...tree.report.reopened);
  return present;
}

async function applySubRepos(ctx: RepoContext, target: RepoState, present: FileCapture, report: ApplyReport): Promise<void> {
  const now = new Map(present.submodules.map((s) => [s.path, s.head] as const));
  for (const sub of target.submodules) {
    const head = now.get(sub.path) ?? null;
    if (!sub.head || head === sub.head) continue;
    const cwd = underRoot(ctx.project, sub.path).toString('utf8');
    const status = await runGit(['status', '--porcelain', '--untracked-files=no'], { cwd });
    const clean = status.code === 0 && status.stdout.length === 0;
    const moved = clean && (await runGit(['checkout', '-q', '--detach', sub.head], { cwd })).code === 0;
    if (!moved)
      report.unrestored.push(
        `submodule ${binary(sub.path).toString('utf8')}: its HEAD is ${head ?? 'gone'}, was ${sub.head} (it has local changes; run: git -C ${binary(sub.path).toString('utf8')} checkout ${sub.head})`,
      );
  }
  // Repositories inside the project are never rolled back; their uncommitted changes (maybe the attempt's) are said.
  for (const repo of present.nested) {
    const name = binary(repo.path).toString('utf8');
    const status = await runGit(['status', '--porcelain'], { cwd: underRoot(ctx.project, repo.path).toString('utf8') });
    if (status.code === 0 && status.stdout.length > 0)
      report.notes.push(
        `nested repository ${name} has uncommitted changes, which a rollback does not undo (Ralph never changes repositories inside the project); see: git -C ${name} status`,
      );
  }
  const nestedNow = new Map(present.nested.map((s) => [s.path, s.head] as const));
  for (const repo of target.nested) {
    const head = nestedNow.get(repo.path);
    if (head === repo.head) continue;
    report.unrestored.push(
      `nested repository ${binary(repo.path).toString('utf8')}: Ralph does not restore the content of repositories inside the project (its HEAD ${head === undefined ? 'is gone' : `is ${head ?? 'unborn'}`}, was ${repo.head ?? 'unborn'})`,
    );
  }
}

/** Replaces a file inside the git dir atomically, the way git itself does (through a lock file). */
function replaceGitFile(path: string, content: Buffer | null): void {
  if (content === null) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  const lock = `${path}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch {
    throw indexLockedError(lock);
  }
  try {
    for (let off = 0; off < content.length;) off += writeSync(fd, content, off, content.length - off);
  } finally {
    closeSync(fd);
  }
  renameSync(lock, path);
}

/** The ref changes of a rollback (see rollback-scope.ts): compare-and-swap moves and the stash. */
export interface RefScope {
  moves: readonly RefMove[];
  stash: StashChange | null;
}

function refCommand(move: RefMove): string {
  if (move.to === null) return `delete ${move.name}\0${move.from ?? ''}\0`;
  if (move.from === null) return `create ${move.name}\0${move.to}\0`;
  return `update ${move.name}\0${move.to}\0${move.from}\0`;
}

/**
 * The planned moves whose refs still have the value they expect, in one
 * transaction that fails as a whole when one of them changed in between; then
 * read again and tried with what is left. A ref someone moved meanwhile is left.
 */
async function moveRefs(ctx: RepoContext, moves: readonly RefMove[], report: ApplyReport): Promise<void> {
  for (let round = 1; ; round += 1) {
    const values = new Map((await readRefs(ctx)).filter((r) => !r.symref).map((r) => [r.name, r.oid] as const));
    const valid = movesStillValid({ moves: [...moves], left: [] }, values);
    if (valid.moves.length > 0) {
      const r = await runGit(['update-ref', '--no-deref', '-z', '--stdin', '-m', 'ralph: rollback'], {
        cwd: ctx.root,
        input: valid.moves.map(refCommand).join(''),
      });
      if (r.code !== 0) {
        if (round < 3) continue;
        throw new Error(`git could not move the refs back: ${r.stderr.trim()}`);
      }
    }
    report.movedRefs.push(...valid.moves);
    report.leftRefs.push(...valid.left);
    return;
  }
}

/** The stash as planned, when refs/stash still has the value the plan expects; false when someone changed it meanwhile. */
async function writeStash(ctx: RepoContext, change: StashChange): Promise<boolean> {
  const log = join(ctx.commonDir, 'logs', 'refs', 'stash');
  const r = await runGit(['rev-parse', '-q', '--verify', 'refs/stash'], { cwd: ctx.root });
  const now = r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  const logNow = existsSync(log) ? readFileSync(log, 'latin1') : null;
  if (now === change.to && logNow === change.log) return true;
  if (now !== change.from && now !== change.to) return false;
  if (now !== change.to) {
    const args =
      change.to === null ? ['update-ref', '-d', 'refs/stash', now ?? ''] : ['update-ref', '-m', 'ralph: rollback', 'refs/stash', change.to, now ?? ''];
    if ((await runGit(args, { cwd: ctx.root })).code !== 0) return false;
  }
  // git added a line for the update; the reflog (the list of entries) becomes the planned one.
  if (change.log === null) rmSync(log, { force: true });
  else {
    mkdirSync(dirname(log), { recursive: true });
    const tmp = join(dirname(log), tempName('stash-log'));
    writeFileSync(tmp, Buffer.from(change.log, 'latin1'));
    renameSync(tmp, log);
  }
  return true;
}

async function applyRefs(ctx: RepoContext, target: RepoState, scope: RefScope, report: ApplyReport): Promise<void> {
  await moveRefs(ctx, scope.moves, report);
  if (scope.stash && !(await writeStash(ctx, scope.stash))) report.stashLeft = true;
  if (readHeadFile(ctx) !== target.head) {
    if (target.head.startsWith('ref: ')) await gitBytes(['symbolic-ref', '-m', 'ralph: rollback', 'HEAD', target.head.slice(5)], { cwd: ctx.root });
    else await gitBytes(['update-ref', '--no-deref', '-m', 'ralph: rollback', 'HEAD', target.head], { cwd: ctx.root });
  }
}

function applyOpState(ctx: RepoContext, target: RepoState): void {
  if (target.opState === null) return;
  const present = readOpState(ctx.gitDir);
  const top = (p: string): string => p.split('/')[0] as string;
  const key = (files: typeof present, name: string): string =>
    files
      .filter((f) => top(f.path) === name)
      .map((f) => `${f.path} ${f.perm} ${f.content?.toString('base64') ?? '-'}`)
      .join('\n');
  for (const name of OP_STATE_NAMES) {
    if (key(present, name) === key(target.opState, name)) continue;
    rmSync(join(ctx.gitDir, name), { recursive: true, force: true });
    for (const f of target.opState.filter((o) => top(o.path) === name)) {
      const full = join(ctx.gitDir, f.path);
      if (f.content === null) mkdirSync(full, { recursive: true, mode: f.perm });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, f.content, { mode: f.perm });
      }
    }
    // Modes exactly as recorded, whatever the umask; deepest first so a read-only directory is filled before it closes.
    for (const f of target.opState.filter((o) => top(o.path) === name).reverse()) chmodSync(join(ctx.gitDir, f.path), f.perm);
  }
}

const ZERO_ID = '0000000000000000000000000000000000000000';

/**
 * For a project below the top of its repository: the present index with the
 * project's entries replaced by the checkpoint's, so what the user staged
 * elsewhere in the repository during the iteration stays staged.
 */
async function scopedIndex(ctx: RepoContext, saved: Buffer): Promise<Buffer> {
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const savedFile = join(dir, tempName('saved-index'));
  const mergedFile = join(dir, tempName('merged-index'));
  try {
    writeFileSync(savedFile, saved);
    const present = join(ctx.gitDir, 'index');
    if (existsSync(present)) copyFileSync(present, mergedFile);
    const entries = async (file: string): Promise<string[]> =>
      existsSync(file) ? splitZ(await gitBytes(['ls-files', '-z', '-s', '--cached'], { cwd: ctx.project, env: { GIT_INDEX_FILE: file } })) : [];
    const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
    const remove = (await entries(mergedFile)).map((line) => `0 ${ZERO_ID}\t${prefix}${line.slice(line.indexOf('\t') + 1)}\0`);
    const add = (await entries(savedFile)).map((line) => `${line.slice(0, line.indexOf('\t'))}\t${prefix}${line.slice(line.indexOf('\t') + 1)}\0`);
    await gitBytes(['update-index', '-z', '--index-info'], {
      cwd: ctx.root,
      env: { GIT_INDEX_FILE: mergedFile },
      input: Buffer.from([...new Set(remove)].join('') + add.join(''), 'latin1'),
    });
    return readFileSync(mergedFile);
  } finally {
    rmSync(savedFile, { force: true });
    rmSync(mergedFile, { force: true });
    rmSync(`${mergedFile}.lock`, { force: true });
  }
}

/** Makes the repository hold `target`. */
export async function applyState(
  ctx: RepoContext,
  target: RepoState,
  cache: StatCache,
  suffix: string,
  scope: RefScope,
  step: StepHook = () => undefined,
  attempt: AttemptPlace | null = null,
): Promise<ApplyReport> {
  const report = emptyApplyReport();
  if (existsSync(join(ctx.gitDir, 'index.lock'))) throw indexLockedError(join(ctx.gitDir, 'index.lock'));
  const first = await captureFiles(ctx, cache, target.files.keys());
  step('captured');
  const present = await applyFiles(ctx, target, first, report, suffix, step, attempt, cache);
  await applySubRepos(ctx, target, present, report);
  step('files');
  replaceGitFile(join(ctx.gitDir, 'index'), ctx.prefix && target.index ? await scopedIndex(ctx, target.index) : target.index);
  step('index');
  await applyRefs(ctx, target, scope, report);
  step('refs');
  applyOpState(ctx, target);
  step('op-state');
  return report;
}
