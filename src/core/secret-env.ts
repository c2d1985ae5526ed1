/**
 * One classifier for secrets in an environment, shared by everything that hands
 * the user's environment to another program (the agent, the verify command), by
 * the check of `$VAR` in .ralphrc and by the redactor that keeps secret values out
 * of what Ralph writes or prints.
 *
 * The rules withhold by default: Ralph cannot know every tool's variable names, so
 * a name that merely looks like it could hold a credential is treated as one, and a
 * user whose harmless variable is caught passes it on by name (`--agent-env NAME`).
 * Two questions, asked of every variable:
 * - does its NAME say it could hold a credential (`*TOKEN*`, `*CRED*`, `*_PAT`, `KEY`, …)?
 * - does its VALUE carry one, whatever the name (`MAVEN_OPTS=-Dproxy.password=…`,
 *   `HTTPS_PROXY=http://user:pw@proxy`, a `ghp_…` token pasted into `NODE_OPTIONS`,
 *   `password=` in a JDBC URL, `AccountKey=` in an Azure connection string, a
 *   `Bearer …` header, a long random string)?
 * A value that merely contains a credential is cleaned (the credential part is
 * cut out, the rest kept) so the variable still does its job; a value that IS a
 * token is withheld whole.
 */

/**
 * Parts of words that mark a credential wherever they occur in a name: DEPLOY_CREDS,
 * MYSQLPASSWORD, XSRF_COOKIE_NAME, SSH_AUTH_SOCK, SESSION_KEY, GOOGLE_PRIVATE_REGISTRY, …
 */
const CREDENTIAL_PART =
  /TOKEN|SECRET|PASSW|PASSPHRASE|PASSCODE|CRED|COOKIE|PRIVATE|SESSION|AUTH|APIKEY|ACCESSKEY|PRIVKEY|SSHKEY|DEPLOYKEY|MASTERKEY|LICENSEKEY|SIGNINGKEY|ENCRYPTIONKEY|ENCKEY|CONNSTR|CONNECTIONSTRING|WEBHOOK|KEYTAB|KEYSTORE|KEYRING|KEYCHAIN|KEYFILE|SIGNATURE|ASKPASS/;

/**
 * Short marks that mean a credential as a whole part of a name (between `_`), some also at the
 * end of one: KEY, API_KEY, PASS, SMTP_PASS, DBPASS, MYSQL_PWD, DOCKERHUB_PAT, SENTRY_DSN,
 * DB_CONN, PIN, OTP. Not inside a word, where they mean something else (PATH, PATTERN,
 * KEYBOARD, MONKEY, PINNED, CONNECT_TIMEOUT).
 */
const CREDENTIAL_SEGMENT = /^(?:KEY|KEYS|\w*(?:PASS|PWD|DSN|SALT)|PW|PAT|PATS|PIN|OTP|TOTP|SIG|JWT|CONN|CONNECTION|CONNECTIONS)$/;

/**
 * Words in which one of the marks above occurs without meaning a credential; they are taken
 * out of a name before it is judged. GIT_AUTHOR_NAME, XAUTHORITY, TOKENIZERS_PARALLELISM,
 * KEYBOARD_LAYOUT, GOPRIVATE (module path patterns), and the session ids of desktops,
 * terminals and D-Bus.
 */
const HARMLESS_WORD =
  /AUTHOR|TOKENIZER|KEYBOARD|KEYMAP|KEYTIMEOUT|BYPASS|PASSENGER|PASSTHROUGH|GOPRIVATE|XDG_SESSION|DBUS_SESSION|DESKTOP_SESSION|TERM_SESSION|SECURITYSESSION|SESSION_MANAGER/g;

/**
 * Names of the shell, the terminal, the locale and the desktop, passed whatever the rules
 * say of their names (PWD and OLDPWD are the working directory, not a password) and
 * whatever their values look like (a directory may have a random-looking name).
 */
export const HARMLESS_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'PWD',
  'OLDPWD',
  'SHELL',
  'SHLVL',
  'TERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'COLORTERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'USER',
  'LOGNAME',
  'HOSTNAME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'CI',
  'NODE_ENV',
];

/** Families of harmless names: locale categories (LC_ALL, LC_CTYPE, …) and XDG base directories. */
const HARMLESS_PREFIXES = ['LC_', 'XDG_'];

const HARMLESS = new Set(HARMLESS_NAMES);

/** True when a name is one of the shell's, terminal's, locale's or desktop's own (see HARMLESS_NAMES). */
export function isHarmlessName(name: string): boolean {
  return HARMLESS.has(name) || HARMLESS_PREFIXES.some((prefix) => name.startsWith(prefix) && name.length > prefix.length);
}

/** Well-known credentials whose names carry none of the marks above. */
export const KNOWN_SECRET_NAMES: readonly string[] = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITLAB_TOKEN',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET',
  'DATABASE_URL',
  // A handle on the user's SSH or GPG keys is as good as the keys.
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  // Where a tool keeps its credentials: whoever has the path reads them.
  'KUBECONFIG',
  'NETRC',
  'DOCKER_CONFIG',
  'NPM_CONFIG_USERCONFIG',
  'npm_config_userconfig',
];

const KNOWN_SECRETS = new Set(KNOWN_SECRET_NAMES);

/** True when a variable name looks like it could hold a credential. */
export function isSecretName(name: string): boolean {
  if (KNOWN_SECRETS.has(name)) return true;
  // A family of harmless names (LC_*, XDG_*) does not excuse a name that says credential (LC_TOKEN_X).
  if (HARMLESS.has(name)) return false;
  return nameSaysCredential(name);
}

/** The name rules alone, without the harmless names: `PWD=` in a connection string is a password. */
function nameSaysCredential(name: string): boolean {
  const upper = name.toUpperCase().replace(HARMLESS_WORD, '_');
  if (CREDENTIAL_PART.test(upper) || upper.endsWith('DATABASE_URL')) return true;
  return upper.split(/[^A-Z0-9]+/).some((segment) => CREDENTIAL_SEGMENT.test(segment));
}

/**
 * Token formats that are credentials wherever they appear: GitHub, GitLab, npm, Slack,
 * AWS access key ids, OpenAI/Anthropic-style `sk-` keys, Stripe, Google API and OAuth keys,
 * Hugging Face, DigitalOcean, SendGrid, PyPI, Docker Hub, Shopify, Vault, Grafana, Sentry,
 * Atlassian, Linear, RubyGems, JWTs, PEM private keys, and HTTP `Basic`/`Bearer` credentials.
 */
const TOKEN_IN_VALUE = [
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  /\bgl(?:pat|dt|ptt|rt|cbt|soat|ft|imt)-[A-Za-z0-9_-]{16,}/,
  /\bnpm_[A-Za-z0-9]{30,}/,
  /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/,
  /\bxapp-\d-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/,
  /\bAIza[0-9A-Za-z_-]{35}/,
  /\bya29\.[0-9A-Za-z_-]{20,}/,
  /\bhf_[A-Za-z0-9]{30,}/,
  /\bdo[opr]_v1_[a-f0-9]{40,}/,
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
  /\bpypi-[A-Za-z0-9_-]{40,}/,
  /\bdckr_pat_[A-Za-z0-9_-]{20,}/,
  /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/,
  /\bhv[sb]\.[A-Za-z0-9_-]{20,}/,
  /\bglsa_[A-Za-z0-9_]{32}/,
  /\bsntry[su]_[A-Za-z0-9_=+/-]{30,}/,
  /\bATATT[A-Za-z0-9_=-]{20,}/,
  /\blin_api_[A-Za-z0-9]{30,}/,
  /\brubygems_[a-f0-9]{40,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  // An HTTP credential as a header carries it; `Bearer authentication` in prose is not one.
  /\b(?:Basic|Bearer|Token|Digest)\s+(?=[A-Za-z0-9+/=._~-]*[A-Z0-9+/=])[A-Za-z0-9+/=._~-]{8,}/,
];

/** `scheme://userinfo@` — the userinfo part of a URL: `user:password`, or a token as the user. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@]*)@/gi;

/** A user name alone in a URL (`ssh://git@host`, `ftp://anonymous@host`) is not a credential. */
const PLAIN_USER = /^[A-Za-z][A-Za-z._-]{0,31}$/;

/**
 * `key=value` inside a value, between `;`, `&`, `?`, `,` or spaces: a JDBC URL's
 * `password=…`, an ADO.NET or ODBC string's `Pwd=…`, an Azure connection string's
 * `AccountKey=…` or `SharedAccessSignature=…`, a signed URL's `sig=…`.
 */
const KEY_VALUE_PAIR = /(^|[;&?,\s])([A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)?)\s*=\s*([^;&,\s]*)/g;

/**
 * What every check of judgeValue needs to find anything: an option word's `=`,
 * a URL's `@`, the start of one of the token formats above, or a run of characters
 * long enough to be a random key.
 */
const MAY_HOLD_CREDENTIAL =
  /[=@]|gh[pousr]_|github_pat_|gl[a-z]+-|npm_|xox|xapp-|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|sk-|[rs]k_|AIza|ya29\.|hf_|do[opr]_v1|SG\.|pypi-|dckr_|shp|hv[sb]\.|glsa_|sntry|ATATT|lin_api_|rubygems_|eyJ|-----BEGIN|Basic |Bearer |Token |Digest |[A-Za-z0-9+/_-]{20}/;

/** One option word of a flags variable: `-Dproxy.password=…`, `--token=…`, `api_key=…`. */
const OPTION_WORD = /^(-{0,2}(?:D|X)?)([A-Za-z_][\w.-]*)=(.*)$/s;

/** Runs of characters a key, a password or a base64 secret is made of. */
const RANDOM_RUN = /[A-Za-z0-9+/=_-]{20,}/g;

function charClass(ch: string): number {
  if (ch >= 'a' && ch <= 'z') return 0;
  if (ch >= 'A' && ch <= 'Z') return 1;
  if (ch >= '0' && ch <= '9') return 2;
  return -1;
}

/**
 * True for a run that reads like random characters: lower case, upper case and digits, which
 * change from one character to the next far more often than in words, identifiers or paths
 * (`ThisIsACamelCaseName2024`, `/Users/Jo/Library`), and a spread of characters wide enough
 * (Shannon entropy) to rule out repetition. Hex strings (commit hashes, UUIDs) have one case
 * and are ids, not keys.
 */
function looksRandom(run: string): boolean {
  let previous = -1;
  let changes = 0;
  let letters = 0;
  const seen = [false, false, false];
  const counts = new Map<string, number>();
  for (const ch of run) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    const cls = charClass(ch);
    if (cls === -1) continue;
    seen[cls] = true;
    if (previous !== -1 && cls !== previous) changes += 1;
    previous = cls;
    letters += 1;
  }
  if (!seen.every(Boolean) || letters < 20 || changes / letters < 0.4) return false;
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / run.length;
    entropy -= p * Math.log2(p);
  }
  return entropy >= 3.5;
}

/** True when a value holds a long random-looking string (a key under a name that does not say so). */
export function hasRandomRun(value: string): boolean {
  for (const match of value.matchAll(RANDOM_RUN)) if (looksRandom(match[0])) return true;
  return false;
}

export type ValueVerdict =
  | { kind: 'clean' }
  /** The credential parts were cut out; `value` is what is left. */
  | { kind: 'stripped'; value: string; removed: string[] }
  /** The value is (or embeds) a token: withhold the whole variable. */
  | { kind: 'secret' };

function isSecretOptionName(name: string): boolean {
  // `proxy.password`, `db-password`, `auth.token`, `Account Key`: judged as a name.
  const normalized = name
    .trim()
    .replace(/[.\s-]/g, '_')
    .toUpperCase();
  return KNOWN_SECRETS.has(normalized) || nameSaysCredential(normalized);
}

export interface JudgeOptions {
  /**
   * Also withhold a value for a long random-looking string in it (default true). Off for the
   * harmless names (PATH, PWD, …), whose values are paths that may look random.
   */
  randomRuns?: boolean;
}

/**
 * Looks for credentials inside a value. Options and `key=value` pairs whose key says secret
 * lose their value; URLs lose their userinfo; an embedded token or random key condemns the
 * whole value, because there is no telling where it ends.
 */
export function judgeValue(value: string, options: JudgeOptions = {}): ValueVerdict {
  // Most values (PATH, LANG, TERM, …) have none of the marks the checks below look for.
  if (!MAY_HOLD_CREDENTIAL.test(value)) return { kind: 'clean' };
  const removed: string[] = [];
  const words = value.split(/(\s+)/);
  const kept: string[] = [];
  for (const word of words) {
    const option = OPTION_WORD.exec(word);
    if (option && option[3] !== '' && isSecretOptionName(option[2] as string)) {
      removed.push(option[3] as string);
      // Drop the word and the whitespace that preceded it.
      if (kept.length > 0 && /^\s+$/.test(kept[kept.length - 1] as string)) kept.pop();
      continue;
    }
    kept.push(word);
  }
  let rest = kept.join('').trim() === '' && removed.length > 0 ? '' : kept.join('');
  rest = rest.replace(KEY_VALUE_PAIR, (match: string, _before: string, key: string, secret: string) => {
    if (secret === '' || !isSecretOptionName(key)) return match;
    removed.push(secret);
    return match.slice(0, match.length - secret.length);
  });
  rest = rest.replace(URL_USERINFO, (match: string, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    if (colon === -1 && PLAIN_USER.test(userinfo)) return match;
    removed.push(colon === -1 ? userinfo : userinfo.slice(colon + 1));
    return scheme;
  });
  if (TOKEN_IN_VALUE.some((pattern) => pattern.test(rest))) return { kind: 'secret' };
  if (options.randomRuns !== false && hasRandomRun(rest)) return { kind: 'secret' };
  if (removed.length === 0) return { kind: 'clean' };
  return { kind: 'stripped', value: rest.replace(/^\s+/, ''), removed: removed.filter((r) => r !== '') };
}

/** The verdict on one variable of the environment, by the rules above (its name, then its value). */
export function judgeVariable(name: string, value: string): ValueVerdict {
  if (isSecretName(name)) return { kind: 'secret' };
  return judgeValue(value, { randomRuns: !isHarmlessName(name) });
}

/** What a filter did to one environment, by name only, so it can be said in one line. */
export interface EnvFilterReport {
  /** Variables not passed at all (secret-looking name or a token in the value). */
  withheld: string[];
  /** Variables passed with their credential parts cut out. */
  stripped: string[];
}

/**
 * The start-up sentence about a filtered environment, or undefined when
 * nothing was filtered. Names only: a value is never shown.
 */
export function describeEnvFilter(target: string, report: EnvFilterReport, passHint: string): string | undefined {
  const parts: string[] = [];
  if (report.withheld.length > 0) parts.push(`withheld ${report.withheld.join(', ')}`);
  if (report.stripped.length > 0) parts.push(`removed credentials from ${report.stripped.join(', ')}`);
  if (parts.length === 0) return undefined;
  return `${target} environment: ${parts.join('; ')} (pass a variable through with ${passHint}).`;
}
