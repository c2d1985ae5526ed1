import { ExitCode, RalphError } from '../errors.js';
import type { ProcessRunner } from '../ports.js';
import type { AgentDeclaration, AgentSettings } from './agent-declaration.js';
import { cliSettingValues } from './cli-agent/cli-context.js';
import type { BackendContext } from './context.js';

/** What a version check needs to know about one agent CLI. */
export interface AgentCliCheck {
  runner: ProcessRunner;
  /** The configured command, e.g. ['codex'] or ['npx', '@openai/codex']. */
  command: readonly string[];
  minVersion: string;
  cwd: string;
  /** The environment the agent itself gets: a version check is a run of the agent's CLI like any other. */
  env: Record<string, string>;
  warn: (message: string) => void;
  /** How messages name the CLI ("Codex CLI"). */
  agent: string;
  /** The .ralphrc key that sets the command (CODEX_CMD). */
  commandKey: string;
  /** How to install the CLI, said when it is missing or broken. */
  installHint: string;
  /** How to update the CLI, said when it is too old. */
  updateHint: string;
}

/** -1, 0, 1 like a comparator; numeric per part. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * `<cli> --version` before the first iteration: a missing or too old CLI is one clear message and
 * exit code 2, not a loop of failed calls. A CLI that does not answer, or prints no version Ralph
 * can read, is only warned about: a development build may still work.
 * Returns the version found (or undefined when it could not be read).
 */
export async function checkAgentCli(check: AgentCliCheck): Promise<string | undefined> {
  const { command, agent, installHint } = check;
  const [file, ...prefix] = command;
  if (!file) throw new RalphError(`${check.commandKey} is empty.`, ExitCode.Usage, installHint);
  const shown = command.join(' ');
  const result = await check.runner.run(file, [...prefix, '--version'], { cwd: check.cwd, env: check.env, timeoutMs: 30_000 });
  if (result.spawnError !== undefined || result.exitCode === 127) {
    throw new RalphError(`${agent} not found: '${shown}' could not be started.`, ExitCode.Usage, installHint);
  }
  if (result.timedOut) {
    check.warn(`'${shown} --version' did not answer within 30 s; continuing without a version check`);
    return undefined;
  }
  if (result.exitCode !== 0) {
    const detail = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ');
    throw new RalphError(`'${shown} --version' failed (exit code ${result.exitCode ?? 'none'}): ${detail.slice(0, 300)}`, ExitCode.Usage, installHint);
  }
  const version = /(\d+\.\d+\.\d+)/.exec(result.stdout.split('\n', 1)[0] ?? '')?.[1];
  if (version === undefined) {
    check.warn(`Could not read the ${agent} version from '${shown} --version'; assuming it is compatible`);
    return undefined;
  }
  if (compareVersions(version, check.minVersion) < 0) {
    throw new RalphError(`${agent} ${version} is older than ${check.minVersion}, the oldest version Ralph supports.`, ExitCode.Usage, check.updateHint);
  }
  return version;
}

/** What messages say about one agent CLI: its name, the key of its command, how to install and update it. */
export type AgentCliAbout = Pick<AgentCliCheck, 'agent' | 'commandKey' | 'installHint' | 'updateHint'>;

/**
 * What messages say about a backend's CLI, all from the registry so every agent's "not found"
 * has one shape: how to install it and log in, the .ralphrc line that points Ralph at it, and
 * how to try Ralph without it.
 */
export function agentCliAbout(entry: Pick<AgentDeclaration, 'displayName' | 'install' | 'login' | 'settings'>): AgentCliAbout {
  const commandKey = entry.settings?.command.key ?? 'the agent command';
  const pkg = entry.install?.replace(/^npm install -g\s+/, '');
  const install = entry.install === undefined ? `Install ${entry.displayName}` : `Install ${entry.displayName} with \`${entry.install}\``;
  const login = entry.login === undefined ? '' : ` and ${entry.login}`;
  const example = pkg === undefined ? '' : ` (for example ${commandKey}="npx ${pkg}")`;
  return {
    agent: entry.displayName,
    commandKey,
    installHint: `${install}${login}, or point ${commandKey} in .ralphrc at it${example}. To try Ralph without an agent, use --backend mock or run \`ralph demo\`.`,
    updateHint: `Update it with \`${entry.install ?? 'its installer'}@latest\`, then run ralph again.`,
  };
}

/**
 * The check a backend runs before its loop's first call, in `env` (the agent's own filtered
 * environment), with the command and minimum version of the agent's own settings; the version
 * found goes to the log.
 */
export async function checkCliBeforeLoop(ctx: BackendContext, agent: AgentDeclaration<string, AgentSettings>, env: Record<string, string>): Promise<void> {
  const { logger } = ctx;
  const { command, minVersion } = cliSettingValues(ctx.config, agent.settings);
  const about = agentCliAbout(agent);
  const version = await checkAgentCli({ runner: ctx.runner, command, minVersion, cwd: ctx.paths.project, env, warn: (m) => logger.warn(m), ...about });
  if (version) logger.info(`${about.agent} ${version}`);
}
