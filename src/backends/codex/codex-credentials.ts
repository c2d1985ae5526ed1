import type { AgentOwnEnv } from '../../core/agent-env.js';

/**
 * What the Codex CLI needs of the environment for itself: its home (CODEX_HOME holds the user's
 * login and sessions; Ralph never points it elsewhere), its OpenAI key and settings, and the
 * variables its own configuration names as a model provider's credentials: `env_key` (the
 * provider's API key, e.g. AZURE_OPENAI_API_KEY) and the variables of `env_http_headers`, from
 * the user's config.toml or a `-c model_providers.<id>.env_key=…` in CODEX_EXTRA_ARGS. Only the
 * user's own configuration counts: a project's files are the agent's to write.
 */
export function codexCredentials(configToml: string | undefined, extraArgs: readonly string[]): AgentOwnEnv {
  const names = new Set<string>([...(configToml === undefined ? [] : providerVariablesOfToml(configToml)), ...providerVariablesOfArgs(extraArgs)]);
  return { prefixes: ['CODEX_', 'OPENAI_'], names: [...names].sort() };
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A TOML string or bare word as written after `=`: `"X"`, `'X'` or `X`. */
function tomlWord(text: string): string | undefined {
  const m = /^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z_][A-Za-z0-9_]*))\s*(?:#.*)?$/.exec(text);
  const word = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  return word !== undefined && VARIABLE.test(word) ? word : undefined;
}

/** The variable names of an inline table `{ "Header" = "VAR", … }`. */
function inlineTableValues(text: string): string[] {
  const body = /^\s*\{(.*)\}\s*(?:#.*)?$/.exec(text)?.[1];
  if (body === undefined) return [];
  const found: string[] = [];
  for (const m of body.matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const word = m[1] ?? m[2] ?? '';
    if (VARIABLE.test(word)) found.push(word);
  }
  return found;
}

/** One `key = value` of a provider: the variables it names, if it is env_key or env_http_headers. */
function providerVariables(key: string, value: string): string[] {
  if (key === 'env_key') {
    const word = tomlWord(value);
    return word === undefined ? [] : [word];
  }
  if (key === 'env_http_headers') return inlineTableValues(value);
  return [];
}

/**
 * The variables named by the model providers of a config.toml: `env_key` and `env_http_headers`
 * lines of `[model_providers.<id>]` tables, and the dotted form `model_providers.<id>.env_key = …`.
 * A small reading of the lines that matter, not a TOML parser: anything else is skipped.
 */
export function providerVariablesOfToml(toml: string): string[] {
  const found: string[] = [];
  let inProvider = false;
  for (const raw of toml.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inProvider = /^\[\s*model_providers\s*\.\s*(?:"[^"]*"|'[^']*'|[\w-]+)\s*\]\s*(?:#.*)?$/.test(line);
      continue;
    }
    const assignment = /^([\w.-]+)\s*=(.*)$/.exec(line);
    if (!assignment) continue;
    const key = assignment[1] as string;
    const value = assignment[2] as string;
    if (inProvider) found.push(...providerVariables(key, value));
    else {
      const dotted = /^model_providers\.[\w-]+\.(env_key|env_http_headers)$/.exec(key);
      if (dotted) found.push(...providerVariables(dotted[1] as string, value));
    }
  }
  return found;
}

/** The variables named by `-c model_providers.<id>.env_key=…` (or `--config`) in Codex's extra arguments. */
export function providerVariablesOfArgs(extraArgs: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    let setting: string | undefined;
    if ((arg === '-c' || arg === '--config') && i + 1 < extraArgs.length) setting = extraArgs[i + 1];
    else if (arg.startsWith('--config=')) setting = arg.slice('--config='.length);
    else if (arg.startsWith('-c') && arg.length > 2) setting = arg.slice(2);
    const m = setting === undefined ? null : /^model_providers\.(?:"[^"]*"|[\w-]+)\.(env_key|env_http_headers)=(.*)$/s.exec(setting);
    if (m) found.push(...providerVariables(m[1] as string, m[2] as string));
  }
  return found;
}
