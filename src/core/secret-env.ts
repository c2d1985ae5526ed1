/**
 * One classifier for secrets in an environment, shared by everything that hands
 * the user's environment to another program (the agent, the verify command) and
 * by the redactor that keeps secret values out of what Ralph writes or prints.
 *
 * Two questions, asked of every variable:
 * - does its NAME say it holds a credential (`*_TOKEN`, `*PASSWORD`, `DATABASE_URL`, …)?
 * - does its VALUE carry one, whatever the name (`MAVEN_OPTS=-Dproxy.password=…`,
 *   `HTTPS_PROXY=http://user:pw@proxy`, a `ghp_…` token pasted into `NODE_OPTIONS`)?
 * A value that merely contains a credential is cleaned (the credential part is
 * cut out, the rest kept) so the variable still does its job; a value that IS a
 * token is withheld whole.
 */

/** Whole words that mark a credential anywhere in a name. AUTH, but not AUTHOR (GIT_AUTHOR_NAME). */
const SECRET_WORD =
  /(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|SIGNING_?KEY|AUTH(?!OR)|COOKIE|CONNECTION_?STRING|WEBHOOK)/i;
/** Short endings that only mean a credential at the end of a name (`MYSQL_PWD`, `SMTP_PASS`, `SENTRY_DSN`). */
const SECRET_SUFFIX = /(_KEY|_KEY_ID|_PWD|_PASS|_PW|_DSN|_SALT|DATABASE_URL)$/i;

/** Well-known credentials whose names carry none of the words above. */
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
];

const KNOWN_SECRETS = new Set(KNOWN_SECRET_NAMES);

/** True when a variable name looks like it holds a credential. */
export function isSecretName(name: string): boolean {
  return KNOWN_SECRETS.has(name) || SECRET_WORD.test(name) || SECRET_SUFFIX.test(name);
}

/**
 * Token formats that are credentials wherever they appear: GitHub, GitLab,
 * npm, Slack, AWS access key ids, OpenAI/Anthropic-style `sk-` keys, JWTs and
 * PEM private keys.
 */
const TOKEN_IN_VALUE = [
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  /\bglpat-[A-Za-z0-9_-]{16,}/,
  /\bnpm_[A-Za-z0-9]{30,}/,
  /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/,
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

/** `scheme://user:password@host` — the userinfo part of a URL with a password. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi;

/**
 * What every check of judgeValue needs to find anything: an option word's `=`,
 * a URL's `@`, or the start of one of the token formats above.
 */
const MAY_HOLD_CREDENTIAL = /[=@]|gh[pousr]_|github_pat_|glpat-|npm_|xox[abeoprs]-|AKIA|ASIA|sk-|eyJ|-----BEGIN/;

/** One option word of a flags variable: `-Dproxy.password=…`, `--token=…`, `api_key=…`. */
const OPTION_WORD = /^(-{0,2}(?:D|X)?)([A-Za-z_][\w.-]*)=(.*)$/s;

export type ValueVerdict =
  | { kind: 'clean' }
  /** The credential parts were cut out; `value` is what is left. */
  | { kind: 'stripped'; value: string; removed: string[] }
  /** The value is (or embeds) a token: withhold the whole variable. */
  | { kind: 'secret' };

function isSecretOptionName(name: string): boolean {
  // `proxy.password`, `db-password`, `auth.token`: judge the last dotted/dashed part as a name.
  const normalized = name.replace(/[.-]/g, '_').toUpperCase();
  return isSecretName(normalized);
}

/**
 * Looks for credentials inside a value. Options whose name says secret are cut
 * out word by word; passwords in URLs lose their userinfo; an embedded token
 * condemns the whole value, because there is no telling where it ends.
 */
export function judgeValue(value: string): ValueVerdict {
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
  rest = rest.replace(URL_CREDENTIALS, (match: string, scheme: string) => {
    removed.push(match.slice(scheme.length, -1).split(':').slice(1).join(':'));
    return scheme;
  });
  if (TOKEN_IN_VALUE.some((pattern) => pattern.test(rest))) return { kind: 'secret' };
  if (removed.length === 0) return { kind: 'clean' };
  return { kind: 'stripped', value: rest.replace(/^\s+/, ''), removed: removed.filter((r) => r !== '') };
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
