import { isHarmlessName, isSecretName, judgeValue, type EnvFilterReport } from './secret-env.js';

/**
 * The environment of the agent. The agent runs shell commands of its own
 * choosing (Claude Code's Bash tool), so whatever it receives, those commands
 * can read and send anywhere. It gets the user's environment minus anything
 * that looks like a credential — by name or by value, with the same rules as
 * the verify command — except:
 * - its own credentials and configuration, as its backend declares them (each
 *   backend knows its CLI's variables, and the keys its CLI's configuration names):
 *   without them it cannot run at all, and no agent gets another agent's;
 * - names the user passed through explicitly (`--agent-env NAME`, AGENT_ENV).
 * Everything else that is not secret-looking passes unchanged, so toolchains,
 * locale, terminal and the project's own settings keep working.
 */

type Env = Readonly<Record<string, string | undefined>>;

export interface AgentEnv extends EnvFilterReport {
  env: Record<string, string>;
  /** Pass-through names that are not set in the environment (said once, so a typo shows). */
  missing: string[];
}

/**
 * What one agent CLI needs for itself (its key, base URL and settings): names that start with
 * one of `prefixes`, and `names` exactly. Declared by each backend in its own folder.
 */
export interface AgentOwnEnv {
  prefixes: readonly string[];
  names: readonly string[];
}

/** True for a flag variable that is set: not empty, `0` or `false`. */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** True when `name` is one of the agent's own variables. */
export function isOwnVariable(name: string, own: AgentOwnEnv): boolean {
  return own.prefixes.some((prefix) => name.startsWith(prefix)) || own.names.includes(name);
}

/**
 * The environment for the agent process and, by name, what was kept from it.
 * `passThrough` names are passed verbatim, whatever they look like; so are the
 * agent's `own` variables.
 */
export function buildAgentEnv(parentEnv: Env, passThrough: readonly string[], own: AgentOwnEnv): AgentEnv {
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  const stripped: string[] = [];
  const explicit = new Set(passThrough);
  for (const name of Object.keys(parentEnv).sort()) {
    const value = parentEnv[name];
    if (value === undefined) continue;
    if (explicit.has(name) || isOwnVariable(name, own)) {
      env[name] = value;
      continue;
    }
    if (isSecretName(name)) {
      withheld.push(name);
      continue;
    }
    const verdict = judgeValue(value, { randomRuns: !isHarmlessName(name) });
    if (verdict.kind === 'secret') withheld.push(name);
    else if (verdict.kind === 'stripped') {
      stripped.push(name);
      env[name] = verdict.value;
    } else env[name] = value;
  }
  const missing = [...explicit].filter((name) => parentEnv[name] === undefined).sort();
  return { env, withheld, stripped, missing };
}
