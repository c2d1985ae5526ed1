import { isOwnVariable, type AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../backend-context.js';
import { CodexBackend } from './codex-backend.js';
import { codexCredentials } from './codex-credentials.js';
import { pricedModel, readCodexConfig } from './codex-priced-model.js';
import { threadUsageFile } from './codex-thread-usage.js';

/** Codex's own variables, and the keys its configuration (the user's config.toml, CODEX_EXTRA_ARGS) names. */
function codexOwn(ctx: BackendContext, configToml: string | undefined): AgentOwnEnv {
  return codexCredentials(configToml, ctx.config.codexExtraArgs);
}

/** The Codex backend of a loop: the configured command, model, effort and extra arguments, in the filtered environment. */
export function createCodexBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const configToml = readCodexConfig(ctx.env);
  const own = codexOwn(ctx, configToml);
  const agentEnv = agentEnvironment(ctx, own);
  // Codex would hand its own keys on to every command it runs; those named like credentials are kept from them.
  const hiddenEnv = Object.keys(agentEnv.env).filter((name) => isOwnVariable(name, own) && isSecretName(name));
  const backend = new CodexBackend({
    command: config.codexCommand,
    model: config.codexModel,
    pricedModel: pricedModel(config.codexModel, config.codexExtraArgs, configToml),
    effort: config.codexEffort,
    extraArgs: config.codexExtraArgs,
    env: agentEnv.env,
    hiddenEnv,
    logger,
    threadUsage: threadUsageFile(ctx.paths.codexThreadUsage),
    now: () => ctx.clock.now(),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old Codex CLI is one clear message before the loop starts. */
export function checkCodexBeforeLoop(ctx: BackendContext): Promise<void> {
  const env = agentEnvFor(ctx, codexOwn(ctx, readCodexConfig(ctx.env))).env;
  return checkCliBeforeLoop(ctx, ctx.config.codexCommand, ctx.config.codexMinVersion, agentCliAbout('codex'), env);
}
