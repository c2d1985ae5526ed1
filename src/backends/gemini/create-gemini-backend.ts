import type { AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { cliSettingValues, processHost } from '../cli-agent/cli-context.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { modelPrice } from '../price-table.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { commandOnly } from '../cli-agent/argv.js';
import type { BackendContext } from '../context.js';
import { GEMINI_AGENT } from './gemini-agent.js';
import type { AgentModule, ReplayOptions } from '../agent-module.js';
import type { AgentCli } from '../cli-agent/cli-agent.js';
import { geminiBackend, geminiCli } from './gemini-backend.js';
import { GEMINI_CLI_DEFAULT_MODELS } from './gemini-default-models.js';
import { commandEnvRedaction, geminiUserSettingsPath, redactionWarning } from './gemini-command-env.js';
import { geminiCredentials, readGeminiUserSettings } from './gemini-credentials.js';
import { buildGeminiPolicy } from './gemini-policy.js';

/** Gemini CLI's own variables, and those the user's Gemini settings name (see geminiCredentials). */
function geminiOwn(ctx: BackendContext): AgentOwnEnv {
  return geminiCredentials(readGeminiUserSettings(ctx.env));
}

/** The Gemini backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createGeminiBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const settings = cliSettingValues(config, GEMINI_AGENT.settings);
  const agentEnv = agentEnvironment(ctx, geminiOwn(ctx));
  const { untranslated } = buildGeminiPolicy(config.allowedTools);
  if (untranslated.length > 0)
    logger.warn(`Gemini CLI has no equivalent of ALLOWED_TOOLS ${untranslated.join(', ')}; ${untranslated.length === 1 ? 'it does' : 'they do'} not apply.`);
  // Gemini reports tokens, not cost: without a list price there is no estimate, and so no --max-cost.
  const models = settings.model ? [settings.model] : GEMINI_CLI_DEFAULT_MODELS;
  const unpriced = models.filter((model) => modelPrice(model) === undefined);
  if (unpriced.length > 0) {
    const model = settings.model ? `model ${settings.model}` : `${unpriced.join(', ')}, which Gemini CLI may run by default (GEMINI_MODEL is not set)`;
    logger.warn(`No list price is known for ${model}: its calls get no cost estimate${config.maxCostUsd > 0 ? ' and --max-cost is not enforced' : ''}.`);
  }
  const secrets = Object.keys(agentEnv.env).filter(isSecretName).sort();
  const redaction = redactionWarning(commandEnvRedaction(agentEnv.env), secrets, geminiUserSettingsPath(agentEnv.env));
  if (redaction) logger.warn(redaction);
  const backend = geminiBackend({
    ...processHost(ctx, agentEnv.env),
    settings,
    allowedTools: config.allowedTools,
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export function checkGeminiBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, GEMINI_AGENT, agentEnvFor(ctx, geminiOwn(ctx)).env);
}

/** Gemini CLI's reader and classifier for its recorded output (a mock script's `replay`). */
export function replayGemini(options: ReplayOptions): AgentCli<unknown> {
  return geminiCli({ settings: commandOnly(['gemini']), allowedTools: [], now: options.now });
}

/** The heavy half of the Gemini CLI, as its declaration's `load` hands it to the registry. */
export const geminiModule = { create: createGeminiBackend, preflight: checkGeminiBeforeLoop, replay: replayGemini } satisfies AgentModule;
