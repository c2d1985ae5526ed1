import { join } from 'node:path';
import { isOwnVariable, type AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../registry.js';
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
    threadUsage: threadUsageFile(join(ctx.paths.dir, 'codex_thread_usage.json')),
    now: () => ctx.clock.now(),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old Codex CLI is one clear message before the loop starts. */
export function checkCodexBeforeLoop(ctx: BackendContext): Promise<void> {
  const env = agentEnvFor(ctx, codexOwn(ctx, readCodexConfig(ctx.env))).env;
  return checkCliBeforeLoop(
    ctx,
    ctx.config.codexCommand,
    ctx.config.codexMinVersion,
    {
      agent: 'Codex CLI',
      commandKey: 'CODEX_CMD',
      installHint:
        'Install the Codex CLI with `npm install -g @openai/codex` and log in with `codex login` (or set OPENAI_API_KEY), ' +
        'or point CODEX_CMD in .ralphrc at it (for example CODEX_CMD="npx @openai/codex").',
      updateHint: 'Update it with `npm install -g @openai/codex@latest`, then run ralph again.',
    },
    env,
  );
}
