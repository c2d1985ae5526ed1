/**
 * The environment of the verify command: an allowlist, so a secret
 * the user exported for something else (GITHUB_TOKEN, AWS keys, the Anthropic
 * key Ralph itself may run with) never reaches `npm test` or whatever the
 * command starts. Everything not listed is dropped.
 *
 * What is on the list and why:
 * - basics every shell and toolchain expects: PATH, HOME, USER, LOGNAME, SHELL,
 *   TERM, temp dirs, TZ, locale (LANG, LANGUAGE, LC_*), XDG base dirs, DISPLAY;
 * - CI markers (CI, GITHUB_ACTIONS, GITLAB_CI, JENKINS_HOME, BUILDKITE, …) so test
 *   runners behave as they would in CI;
 * - language toolchain locations (Node, Python, Go, Rust, Java, version managers)
 *   so the command finds the same interpreter the user would;
 * - output styling (COLORTERM, FORCE_COLOR, NO_COLOR) and editors.
 *
 * Deliberately NOT on the list, even though some builds want them — pass them with
 * `--verify-env K=V` when a command needs them:
 * - proxies (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY): their URLs often carry
 *   `user:password@`;
 * - package-registry settings other than caches (npm_config_registry,
 *   NPM_CONFIG_USERCONFIG, PIP_INDEX_URL, …): registry URLs and config files carry
 *   auth tokens;
 * - SSH_AUTH_SOCK and GPG_AGENT_INFO: a handle on the user's keys is a credential;
 * - GIT_*: a leaked GIT_DIR or GIT_INDEX_FILE from a hook would point the
 *   command at the wrong repository;
 * - anything cloud (AWS_*, GOOGLE_*, AZURE_*), database URLs, API keys.
 *
 * Even an allowlisted name is dropped when it looks like a secret (a future
 * `LC_…_TOKEN`, a tool that reuses an allowed prefix), and an allowlisted value
 * loses the credentials it carries (`MAVEN_OPTS=-Dproxy.password=…`). Explicit
 * overrides are always passed: the user asked for them by name.
 */

import { isHarmlessName, isSecretName, judgeValue } from './secret-env.js';

/** The verdict on an allowlisted value (a path may look random; see judgeValue). */
function judgeAllowed(name: string, value: string): ReturnType<typeof judgeValue> {
  return judgeValue(value, { randomRuns: !isHarmlessName(name) });
}

export const VERIFY_ENV_ALLOWLIST: readonly string[] = [
  // shell basics
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
  'LANG',
  'LANGUAGE',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_RUNTIME_DIR',
  'NO_PROXY',
  'no_proxy',
  // CI markers
  'CI',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'JENKINS_HOME',
  'BUILDKITE',
  'CIRCLECI',
  'TRAVIS',
  'TF_BUILD',
  // Node
  'NODE_ENV',
  'NODE_PATH',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'NODE_NO_WARNINGS',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'PNPM_HOME',
  'COREPACK_HOME',
  'npm_config_cache',
  'NPM_CONFIG_CACHE',
  'YARN_CACHE_FOLDER',
  // Python
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONIOENCODING',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'PYENV_ROOT',
  'PIP_CACHE_DIR',
  // Go, Rust, Java, Ruby
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'GOFLAGS',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'JAVA_HOME',
  'GRADLE_USER_HOME',
  'MAVEN_OPTS',
  'GEM_HOME',
  'GEM_PATH',
  // output and editors
  'EDITOR',
  'VISUAL',
  'COLORTERM',
  'FORCE_COLOR',
  'NO_COLOR',
];

const ALLOWED = new Set(VERIFY_ENV_ALLOWLIST);

/** Name prefixes passed as a family (locale categories: LC_ALL, LC_CTYPE, LC_MESSAGES, …). */
export const VERIFY_ENV_ALLOWED_PREFIXES: readonly string[] = ['LC_'];

export { isSecretName, KNOWN_SECRET_NAMES } from './secret-env.js';

/** True when a name may be passed from the parent environment. */
export function isAllowedName(name: string): boolean {
  if (isSecretName(name)) return false;
  return ALLOWED.has(name) || VERIFY_ENV_ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix) && name.length > prefix.length);
}

/**
 * The environment for one verify run: allowlisted, non-secret variables of
 * `parentEnv` with credentials cut out of their values, then `overrides` on
 * top (passed whatever their name).
 */
export function buildVerifyEnv(
  parentEnv: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of Object.keys(parentEnv).sort()) {
    const value = parentEnv[name];
    if (value === undefined || !isAllowedName(name)) continue;
    const verdict = judgeAllowed(name, value);
    if (verdict.kind === 'secret') continue;
    env[name] = verdict.kind === 'stripped' ? verdict.value : value;
  }
  for (const [name, value] of Object.entries(overrides)) env[name] = value;
  return env;
}

/** Names of `parentEnv` that were withheld, for `--config` / debug output (values never shown). */
export function droppedVerifyEnvNames(parentEnv: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(parentEnv)
    .filter((name) => {
      const value = parentEnv[name];
      return value !== undefined && (!isAllowedName(name) || judgeAllowed(name, value).kind === 'secret');
    })
    .sort();
}

/** Allowlisted names whose values lose credentials on the way to the verify command (names only). */
export function strippedVerifyEnvNames(parentEnv: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(parentEnv)
    .filter((name) => {
      const value = parentEnv[name];
      return value !== undefined && isAllowedName(name) && judgeAllowed(name, value).kind === 'stripped';
    })
    .sort();
}
