// What the drivers switched off in Ralph's git calls are read from, compared by bytes: the
// digest changes with every byte git reads them from, and there is none where bytes cannot tell.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anySubmoduleOnDisk, driverSourceDigest, sourcesUnchanged } from '../../../src/infra/driver-sources.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A git dir as the digest reads it: a config, an index, nothing else. */
function gitDirWith(files: Record<string, string>): { cwd: string; gitDir: string } {
  const cwd = tempDir('ralph-driver-sources-');
  const gitDir = join(cwd, '.git');
  mkdirSync(gitDir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(gitDir, name), text);
  return { cwd, gitDir };
}

const BASE = { config: '[core]\n\tbare = false\n', index: 'DIRC\0\0\0\x02\0\0\0\0' };

function digestOf(files: Record<string, string>, env: NodeJS.ProcessEnv = {}): string | undefined {
  const { cwd, gitDir } = gitDirWith(files);
  return driverSourceDigest(cwd, { gitDir, commonDir: gitDir }, env);
}

/** The digest before and after the git dir's files become `files` (a file missing there is removed). */
function digestsAround(files: Record<string, string>, env: NodeJS.ProcessEnv): [string | undefined, string | undefined] {
  const { cwd, gitDir } = gitDirWith(BASE);
  const dirs = { gitDir, commonDir: gitDir };
  const before = driverSourceDigest(cwd, dirs, {});
  for (const name of Object.keys(BASE)) if (!(name in files)) rmSync(join(gitDir, name));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(gitDir, name), text);
  return [before, driverSourceDigest(cwd, dirs, env)];
}

describe('driverSourceDigest', () => {
  it('is the same while the same bytes are there', () => {
    const one = gitDirWith(BASE);
    const first = driverSourceDigest(one.cwd, { gitDir: one.gitDir, commonDir: one.gitDir }, {});
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(driverSourceDigest(one.cwd, { gitDir: one.gitDir, commonDir: one.gitDir }, {})).toBe(first);
  });

  it.each([
    ['a byte of the config', { ...BASE, config: '[core]\n\tbare = fals\n' }, {}],
    ['a filter added to the config', { ...BASE, config: `${BASE.config}[filter "x"]\n\tclean = cat\n` }, {}],
    ['a config.worktree', { ...BASE, 'config.worktree': '[filter "x"]\n\tclean = cat\n' }, {}],
    ['no config', { index: BASE.index }, {}],
    ['a byte of the index', { ...BASE, index: 'DIRC\0\0\0\x02\0\0\0\x01' }, {}],
    ['no index', { config: BASE.config }, {}],
    ['an index that holds what stood for none', { ...BASE, index: '\0absent' }, {}],
    ["a git variable of the call's", BASE, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: 'c' }],
  ])('changes with %s', (_what, files: Record<string, string>, env: NodeJS.ProcessEnv) => {
    const [before, after] = digestsAround(files, env);
    expect(before).toBeDefined();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });

  it('reads the index a call names in GIT_INDEX_FILE instead of the git dir’s', () => {
    const { cwd, gitDir } = gitDirWith(BASE);
    const dirs = { gitDir, commonDir: gitDir };
    writeFileSync(join(cwd, 'private-index'), 'one');
    const env = { GIT_INDEX_FILE: 'private-index' };
    const first = driverSourceDigest(cwd, dirs, env);
    writeFileSync(join(gitDir, 'index'), 'changed, but not read');
    expect(driverSourceDigest(cwd, dirs, env)).toBe(first);
    writeFileSync(join(cwd, 'private-index'), 'two');
    expect(driverSourceDigest(cwd, dirs, env)).not.toBe(first);
  });

  it.each([
    ['a config that includes another file', { ...BASE, config: `${BASE.config}[include]\n\tpath = ../more\n` }],
    ['a conditional include, in capitals', { ...BASE, config: `${BASE.config}[IncludeIf "gitdir:/x/"]\n\tpath = ../more\n` }],
    ['a split index', { ...BASE, 'sharedindex.0123456789abcdef0123456789abcdef01234567': 'DIRC' }],
  ])('is undefined with %s: git is asked', (_what, files: Record<string, string>) => {
    expect(digestOf(files)).toBeUndefined();
  });

  it('is undefined when a config or the index is a link or not a regular file', () => {
    const { cwd, gitDir } = gitDirWith(BASE);
    const dirs = { gitDir, commonDir: gitDir };
    expect(driverSourceDigest(cwd, dirs, {})).toBeDefined();
    writeFileSync(join(cwd, 'elsewhere'), BASE.config);
    rmSync(join(gitDir, 'config'));
    symlinkSync(join(cwd, 'elsewhere'), join(gitDir, 'config'));
    expect(driverSourceDigest(cwd, dirs, {})).toBeUndefined();
    rmSync(join(gitDir, 'config'));
    execFileSync('mkfifo', [join(gitDir, 'config')]);
    expect(driverSourceDigest(cwd, dirs, {})).toBeUndefined();
    rmSync(join(gitDir, 'config'));
    writeFileSync(join(gitDir, 'config'), BASE.config);
    rmSync(join(gitDir, 'index'));
    mkdirSync(join(gitDir, 'index'));
    expect(driverSourceDigest(cwd, dirs, {})).toBeUndefined();
  });

  it('reads a large index whole, in pieces', () => {
    const big = 'x'.repeat(1024 * 1024 + 17);
    const { cwd, gitDir } = gitDirWith({ ...BASE, index: big });
    const dirs = { gitDir, commonDir: gitDir };
    const first = driverSourceDigest(cwd, dirs, {});
    writeFileSync(join(gitDir, 'index'), `${big.slice(0, -1)}y`);
    expect(driverSourceDigest(cwd, dirs, {})).not.toBe(first);
  });
});

describe('sourcesUnchanged', () => {
  it('holds for the same digest while no recorded submodule has a work tree on disk', () => {
    const dir = tempDir('ralph-driver-sources-');
    const tree = join(dir, 'nested');
    const known = { digest: 'd', gitlinks: [tree] };
    expect(sourcesUnchanged(known, 'd')).toBe(true);
    expect(sourcesUnchanged(known, 'e')).toBe(false);
    expect(sourcesUnchanged(known, undefined)).toBe(false);
    expect(sourcesUnchanged(undefined, 'd')).toBe(false);
    mkdirSync(join(tree, '.git'), { recursive: true });
    expect(anySubmoduleOnDisk([tree])).toBe(true);
    expect(sourcesUnchanged(known, 'd')).toBe(false);
  });
});
