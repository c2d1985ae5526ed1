import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything about a repository a rollback must restore, read with plain fs
 * and git (independently of Ralph's code): every file under the work tree
 * (ignored ones too, which must stay untouched) with its bytes, type and exact
 * permission bits, empty directories, the raw index file, HEAD, all refs except
 * Ralph's, the stash reflog and operation-state files in the git dir.
 * `skip` names top-level entries to leave out (Ralph's own state).
 */
export interface RepoFingerprint {
  tree: Record<string, string>;
  index: string;
  head: string;
  refs: string;
  stashLog: string;
  opState: Record<string, string>;
}

function walk(root: Buffer, rel: string, out: Record<string, string>, skip: (rel: string) => boolean): void {
  const abs = rel ? Buffer.concat([root, Buffer.from('/'), Buffer.from(rel, 'latin1')]) : root;
  const names = readdirSync(abs, { encoding: 'buffer' });
  if (names.length === 0 && rel) out[`${rel}/`] = 'empty dir';
  for (const name of names) {
    const child = rel ? `${rel}/${name.toString('latin1')}` : name.toString('latin1');
    if (skip(child)) continue;
    const full = Buffer.concat([root, Buffer.from('/'), Buffer.from(child, 'latin1')]);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) out[child] = `link -> ${readlinkSync(full, { encoding: 'buffer' }).toString('latin1')}`;
    else if (st.isDirectory()) walk(root, child, out, skip);
    else out[child] = `file ${(st.mode & 0o7777).toString(8)} ${readFileSync(full).toString('base64')}`;
  }
}

const OP_STATE = [
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'REBASE_HEAD',
  'SQUASH_MSG',
  'AUTO_MERGE',
  'ORIG_HEAD',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
];

export function readTreeFiles(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const tree: Record<string, string> = {};
  walk(Buffer.from(dir), '', tree, (rel) => rel === '.git' || skip(rel));
  return tree;
}

export function fingerprint(dir: string, skip: (rel: string) => boolean = (rel) => rel === '.ralph'): RepoFingerprint {
  const gitDir = join(dir, '.git');
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const refs = git('for-each-ref', '--format=%(refname) %(objectname) %(symref)')
    .split('\n')
    .filter((l) => l && !l.startsWith('refs/ralph/'))
    .join('\n');
  const opState: Record<string, string> = {};
  for (const name of OP_STATE) {
    const path = join(gitDir, name);
    if (!existsSync(path)) continue;
    if (lstatSync(path).isDirectory()) Object.assign(opState, Object.fromEntries(Object.entries(readTreeFiles(path)).map(([k, v]) => [`${name}/${k}`, v])));
    else opState[name] = readFileSync(path).toString('base64');
  }
  const read = (path: string): string => (existsSync(path) ? readFileSync(path).toString('base64') : '(none)');
  return {
    tree: readTreeFiles(dir, skip),
    index: read(join(gitDir, 'index')),
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
    refs,
    stashLog: read(join(gitDir, 'logs', 'refs', 'stash')),
    opState,
  };
}
