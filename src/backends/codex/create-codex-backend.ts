import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import { agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../registry.js';
import { CodexBackend } from './codex-backend.js';
import { pricedModel, readCodexConfig } from './codex-priced-model.js';
import { threadUsageFile } from './codex-thread-usage.js';

/**
 * What the Codex CLI needs for itself besides what any agent gets: its home (CODEX_HOME holds
 * the user's login and sessions; Ralph never points it elsewhere) and its API key. Codex would
 * hand the key on to every command it runs; those named like credentials are kept from them.
 */
const CODEX_OWN = /^(?:CODEX_|OPENAI_)/;

/** The Codex backend of a loop: the configured command, model, effort and extra arguments, in the filtered environment. */
export function createCodexBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const own = Object.keys(ctx.env).filter((name) => CODEX_OWN.test(name));
  const hiddenEnv = own.filter(isSecretName).sort();
  const agentEnv = agentEnvironment(ctx, { alsoPass: own });
  return new CodexBackend({
    command: config.codexCommand,
    model: config.codexModel,
    pricedModel: pricedModel(config.codexModel, config.codexExtraArgs, readCodexConfig(agentEnv.env)),
    effort: config.codexEffort,
    extraArgs: config.codexExtraArgs,
    env: agentEnv.env,
    hiddenEnv,
    logger,
    threadUsage: threadUsageFile(ctx.paths.codexThreadUsage),
    now: () => ctx.clock.now(),
  });
}

/** A missing or too old Codex CLI is one clear message before the loop starts. */
export function checkCodexBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, ctx.config.codexCommand, ctx.config.codexMinVersion, agentCliAbout('codex'));
}
