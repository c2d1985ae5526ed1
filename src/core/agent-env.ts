import { isSecretName, judgeValue, type EnvFilterReport } from './secret-env.js';

/**
 * The environment of the agent. The agent runs shell commands of its own
 * choosing (Claude Code's Bash tool), so whatever it receives, those commands
 * can read and send anywhere. It gets the user's environment minus anything
 * that looks like a credential — by name or by value, with the same rules as
 * the verify command — except:
 * - its own credentials and configuration (ANTHROPIC_*, CLAUDE_*): without them
 *   it cannot run at all;
 * - the cloud credentials of the provider Claude Code was told to use
 *   (CLAUDE_CODE_USE_BEDROCK → AWS, CLAUDE_CODE_USE_VERTEX → Google);
 * - names the user passed through explicitly (`--agent-env NAME`, AGENT_ENV).
 * Everything else that is not secret-looking passes unchanged, so toolchains,
 * locale, terminal and the project's own settings keep working.
 */

/** The agent's own API key, OAuth token and settings. */
const AGENT_OWN_PREFIXES = ['ANTHROPIC_', 'CLAUDE_'];

const BEDROCK_NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_PROFILE',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
];
const VERTEX_NAMES = ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'CLOUD_ML_REGION'];

type Env = Readonly<Record<string, string | undefined>>;

export interface AgentEnv extends EnvFilterReport {
  env: Record<string, string>;
  /** Pass-through names that are not set in the environment (said once, so a typo shows). */
  missing: string[];
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * What another agent CLI needs for itself (its key, base URL and settings), for a backend that is
 * not Claude Code: names that start with one of `prefixes`, and `names` exactly.
 */
export interface AgentOwnEnv {
  prefixes: readonly string[];
  names: readonly string[];
}

/** Names the agent needs for itself: another agent's own list, or Claude's given which model provider it was told to use. */
function listAgentOwnNames(parentEnv: Env, agent?: AgentOwnEnv): Set<string> {
  if (agent) {
    const named = Object.keys(parentEnv).filter((name) => agent.prefixes.some((prefix) => name.startsWith(prefix)) || agent.names.includes(name));
    return new Set(named);
  }
  const own = new Set<string>();
  for (const name of Object.keys(parentEnv)) {
    if (AGENT_OWN_PREFIXES.some((prefix) => name.startsWith(prefix))) own.add(name);
  }
  if (isOn(parentEnv['CLAUDE_CODE_USE_BEDROCK'])) for (const name of BEDROCK_NAMES) own.add(name);
  if (isOn(parentEnv['CLAUDE_CODE_USE_VERTEX'])) for (const name of VERTEX_NAMES) own.add(name);
  return own;
}

/**
 * The environment for the agent process and, by name, what was kept from it.
 * `passThrough` names are passed verbatim, whatever they look like.
 */
export function buildAgentEnv(parentEnv: Env, passThrough: readonly string[] = [], agent?: AgentOwnEnv): AgentEnv {
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  const stripped: string[] = [];
  const explicit = new Set(passThrough);
  const own = listAgentOwnNames(parentEnv, agent);
  for (const name of Object.keys(parentEnv).sort()) {
    const value = parentEnv[name];
    if (value === undefined) continue;
    if (explicit.has(name) || own.has(name)) {
      env[name] = value;
      continue;
    }
    if (isSecretName(name)) {
      withheld.push(name);
      continue;
    }
    const verdict = judgeValue(value);
    if (verdict.kind === 'secret') withheld.push(name);
    else if (verdict.kind === 'stripped') {
      stripped.push(name);
      env[name] = verdict.value;
    } else env[name] = value;
  }
  const missing = [...explicit].filter((name) => parentEnv[name] === undefined).sort();
  return { env, withheld, stripped, missing };
}
