import { join } from 'node:path';
import { isOwnVariable, type AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { cliSettingValues, processHost } from '../cli-agent/cli-context.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { commandOnly } from '../cli-agent/argv.js';
import type { BackendContext } from '../context.js';
import { CODEX_AGENT } from './codex-agent.js';
import type { AgentModule, ReplayOptions } from '../agent-module.js';
import type { AgentCli } from '../cli-agent/cli-agent.js';
import { codexBackend, codexCli } from './codex-backend.js';
import { codexCredentials } from './codex-credentials.js';
import { pricedModel, readCodexConfig } from './codex-priced-model.js';
import { sessionWindowsReader } from './codex-session-windows.js';
import { threadUsageFile } from './codex-thread-usage.js';

/** Codex's own variables, and the keys its configuration (the user's config.toml, CODEX_EXTRA_ARGS) names. */
function codexOwn(ctx: BackendContext, configToml: string | undefined): AgentOwnEnv {
  return codexCredentials(configToml, cliSettingValues(ctx.config, CODEX_AGENT.settings).extraArgs);
}

/** The Codex backend of a loop: the configured command, model, effort and extra arguments, in the filtered environment. */
export function createCodexBackend(ctx: BackendContext): AgentBackend {
  const settings = cliSettingValues(ctx.config, CODEX_AGENT.settings);
  const configToml = readCodexConfig(ctx.env);
  const own = codexOwn(ctx, configToml);
  const agentEnv = agentEnvironment(ctx, own);
  // Codex would hand its own keys on to every command it runs; those named like credentials are kept from them.
  const hiddenEnv = Object.keys(agentEnv.env).filter((name) => isOwnVariable(name, own) && isSecretName(name));
  const backend = codexBackend({
    ...processHost(ctx, agentEnv.env),
    settings,
    pricedModel: pricedModel(settings.model, settings.extraArgs, configToml),
    hiddenEnv,
    threadUsage: threadUsageFile(ctx.paths.codexThreadUsage),
    sessionWindows: sessionWindowsReader(codexHomeOf(agentEnv.env)),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** Where the Codex CLI keeps its state: $CODEX_HOME, else ~/.codex (as it finds its config). */
function codexHomeOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env['CODEX_HOME'] || (env['HOME'] ? join(env['HOME'], '.codex') : undefined);
}

/** A missing or too old Codex CLI is one clear message before the loop starts. */
export function checkCodexBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, CODEX_AGENT, agentEnvFor(ctx, codexOwn(ctx, readCodexConfig(ctx.env))).env);
}

/** Codex's reader and classifier for its recorded output (a mock script's `replay`); no thread totals are kept. */
export function replayCodex(options: ReplayOptions): AgentCli<unknown> {
  return codexCli({ settings: commandOnly(['codex']), ...options });
}

/** The heavy half of the Codex CLI, as its declaration's `load` hands it to the registry. */
export const codexModule = { create: createCodexBackend, preflight: checkCodexBeforeLoop, replay: replayCodex } satisfies AgentModule;
