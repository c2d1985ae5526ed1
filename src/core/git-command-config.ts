/**
 * Which git settings make git run a command, and the values that keep Ralph's own git calls
 * from running any: a repository's configuration is something the agent may have written (its
 * `.git/config`, a config reached through a planted `.git/commondir`), and an in-tree
 * `.gitattributes` can send any file through any filter or diff driver the config names.
 */

/** Settings every git call of Ralph's carries, whatever the repository says. */
export const NEUTRAL_SETTINGS: ReadonlyArray<readonly [key: string, value: string]> = [
  // A hook or an fsmonitor program is a command of the repository's choosing.
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  // Only a patch output runs these, and Ralph's calls print none; empty, git refuses to run them.
  ['diff.external', ''],
  ['core.pager', 'cat'],
  // ":" is git's own "no editor".
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  // An automatic gc starts a process that outlives the call (and runs a hook).
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // A checkout that went on into submodules would run their configuration's commands too.
  ['submodule.recurse', 'false'],
];

/** `git config --get-regexp` pattern of the settings of drivers that name a command. */
export const DRIVER_KEYS = '^(filter|diff|merge)\\..+\\.(clean|smudge|process|required|textconv|command|driver)$';

export interface ScopedSetting {
  scope: string;
  key: string;
  value: string;
}

/** `git config -z --show-scope --get-regexp` output: `scope NUL key LF value NUL`, repeated. */
export function parseScopedSettings(text: string): ScopedSetting[] {
  const parts = text.split('\0');
  const settings: ScopedSetting[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i] ?? '';
    const entry = parts[i + 1] ?? '';
    const cut = entry.indexOf('\n');
    settings.push({ scope, key: cut === -1 ? entry : entry.slice(0, cut), value: cut === -1 ? '' : entry.slice(cut + 1) });
  }
  return settings;
}

/** The settings of each kind of driver that name a command, and what turns each off. */
const DRIVER_OFF: Record<string, ReadonlyArray<readonly [variable: string, value: string]>> = {
  // Empty clean, smudge and process: git applies no filter (and `required` would refuse that).
  filter: [
    ['clean', ''],
    ['smudge', ''],
    ['process', ''],
    ['required', 'false'],
  ],
  // Empty: git refuses to run them rather than running anything.
  diff: [
    ['textconv', ''],
    ['command', ''],
  ],
  merge: [['driver', '']],
};

/** Scopes that live in the repository, where the agent may have written them. */
const REPOSITORY_SCOPES: ReadonlySet<string> = new Set(['local', 'worktree']);

/**
 * The overrides that switch off every driver the repository's own configuration defines or
 * changes. Drivers of the user's global and system configuration (git-lfs installed the usual
 * way) keep working: the agent could not have written those.
 */
export function driverOverrides(settings: readonly ScopedSetting[]): Array<[key: string, value: string]> {
  const drivers = new Map<string, string>();
  for (const { scope, key } of settings) {
    if (!REPOSITORY_SCOPES.has(scope)) continue;
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first === -1 || last <= first) continue;
    const kind = key.slice(0, first);
    if (DRIVER_OFF[kind] === undefined) continue;
    drivers.set(key.slice(0, last), kind);
  }
  const overrides: Array<[string, string]> = [];
  for (const [driver, kind] of drivers) for (const [variable, value] of DRIVER_OFF[kind] ?? []) overrides.push([`${driver}.${variable}`, value]);
  return overrides;
}

/**
 * `overrides` as GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n variables, after the
 * ones `inherited` already holds: a key travels whole (a driver's name may hold a "="), and
 * git passes them on to the git processes it starts itself.
 */
export function configVariables(
  overrides: ReadonlyArray<readonly [string, string]>,
  inherited: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  if (overrides.length === 0) return {};
  const had = Number(inherited['GIT_CONFIG_COUNT'] ?? '0');
  const start = Number.isInteger(had) && had > 0 ? had : 0;
  const variables: Record<string, string> = { GIT_CONFIG_COUNT: String(start + overrides.length) };
  overrides.forEach(([key, value], i) => {
    variables[`GIT_CONFIG_KEY_${start + i}`] = key;
    variables[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return variables;
}

/** What identifies where git finds a repository and its configuration, as Ralph read it. */
export interface RepositoryLayout {
  /** The `.git` found from the working directory up: its path, kind and identity (and a file's text). */
  dotGit: string;
  /** The git dir it leads to, by identity. */
  gitDir: string;
  /** The text of the git dir's `commondir` file, or "none". */
  commondir: string;
  /** The common dir, by identity. */
  commonDir: string;
  /** The identity of each configuration file (compared only while the agent is contained, where nothing may change them). */
  configFiles: string;
}

const LAYOUT_WORDS: Record<keyof RepositoryLayout, string> = {
  dotGit: 'its .git',
  gitDir: 'its git dir',
  commondir: 'its .git/commondir',
  commonDir: 'the common git dir it points to',
  configFiles: 'its git configuration files',
};

/**
 * What changed between two readings of a repository's layout, in words, or undefined when
 * nothing did. A project that had no repository may get one (`git init` by the agent). The
 * configuration files count only when `configMatters`: an agent that is not contained may
 * well run `git config`, and is not kept from running anything else either.
 */
export function layoutChange(before: RepositoryLayout | undefined, after: RepositoryLayout | undefined, configMatters: boolean): string | undefined {
  if (before === undefined) return undefined;
  if (after === undefined) return 'the repository is gone';
  const changed = (Object.keys(LAYOUT_WORDS) as Array<keyof RepositoryLayout>).filter(
    (part) => (configMatters || part !== 'configFiles') && before[part] !== after[part],
  );
  return changed.length === 0 ? undefined : changed.map((part) => LAYOUT_WORDS[part]).join(', ');
}
