import type { FileEntry, OpFile, RefEntry, RepoState } from './repo-state-model.js';

/**
 * Where two repository states differ, as short plain sentences (paths as
 * binary strings; the caller turns them into text). Used to decide whether a
 * rollback has anything to do and to check that it restored everything.
 * Parts the target did not record (null) are not compared.
 */

export interface StateDifferences {
  files: string[];
  emptyDirs: string[];
  other: string[];
}

function sameFile(a: FileEntry | undefined, b: FileEntry | undefined): boolean {
  return a !== undefined && b !== undefined && a.mode === b.mode && a.oid === b.oid && a.perm === b.perm;
}

function refKey(r: RefEntry): string {
  return `${r.name} ${r.oid} ${r.symref}`;
}

function opKey(f: OpFile): string {
  return `${f.path} ${f.perm} ${f.content === null ? '-' : f.content.toString('base64')}`;
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

export function diffStates(present: RepoState, target: RepoState): StateDifferences {
  const files: string[] = [];
  for (const [path, entry] of target.files) if (entry.mode !== '160000' && !sameFile(present.files.get(path), entry)) files.push(path);
  for (const [path, entry] of present.files) if (entry.mode !== '160000' && !target.files.has(path)) files.push(path);
  const emptyDirs: string[] = [];
  if (target.emptyDirs !== null) {
    const want = new Set(target.emptyDirs);
    const have = new Set(present.emptyDirs ?? []);
    for (const d of want) if (!have.has(d)) emptyDirs.push(d);
    for (const d of have) if (!want.has(d)) emptyDirs.push(d);
  }
  const other: string[] = [];
  // Below the top of a repository only the project's part of the index is the project's.
  const sameIndex = target.indexView && present.indexView ? target.indexView === present.indexView : sameBytes(present.index, target.index);
  if (!sameIndex) other.push('the index (staged changes)');
  if (present.head !== target.head) other.push(`HEAD (${present.head} instead of ${target.head})`);
  if (target.refs !== null) {
    const want = new Set(target.refs.map(refKey));
    const have = new Set((present.refs ?? []).map(refKey));
    const moved = new Set<string>();
    for (const r of target.refs) if (!have.has(refKey(r))) moved.add(r.name);
    if (target.refsComplete) for (const r of present.refs ?? []) if (!want.has(refKey(r))) moved.add(r.name);
    if (moved.size > 0) other.push(`refs ${[...moved].sort().join(', ')}`);
    if (target.refsComplete && !sameBytes(present.stashLog, target.stashLog)) other.push('the stash entries');
  }
  if (target.opState !== null) {
    const want = target.opState.map(opKey).join('\n');
    const have = (present.opState ?? []).map(opKey).join('\n');
    if (want !== have) other.push('the state of a merge, rebase, cherry-pick or revert in progress');
  }
  return { files: files.sort(), emptyDirs: emptyDirs.sort(), other };
}

export function isSameState(d: StateDifferences): boolean {
  return d.files.length === 0 && d.emptyDirs.length === 0 && d.other.length === 0;
}
