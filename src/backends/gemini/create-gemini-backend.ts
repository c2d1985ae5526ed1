import type { AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { agentCliAbout, checkCliBeforeLoop } from '../cli-version-check.js';
import { modelPrice } from '../price-table.js';
import { agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../registry.js';
import { GeminiBackend } from './gemini-backend.js';
import { GEMINI_CLI_DEFAULT_MODELS } from './gemini-default-models.js';
import { commandEnvRedaction, geminiUserSettingsPath, redactionWarning } from './gemini-command-env.js';
import { buildGeminiPolicy } from './gemini-policy.js';

/**
 * What Gemini CLI needs of the environment for itself: its key and settings (GEMINI_*, GOOGLE_GEMINI_BASE_URL),
 * and the Google credentials of its other ways to log in (Vertex AI, a Google API key, application credentials).
 */
const GEMINI_OWN_ENV: AgentOwnEnv = {
  prefixes: ['GEMINI_', 'GOOGLE_GEMINI_', 'GOOGLE_GENAI_'],
  names: ['GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_APPLICATION_CREDENTIALS'],
};

/** The Gemini backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createGeminiBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const agentEnv = agentEnvironment(ctx, { own: GEMINI_OWN_ENV });
  const { untranslated } = buildGeminiPolicy(config.allowedTools);
  if (untranslated.length > 0)
    logger.warn(`Gemini CLI has no equivalent of ALLOWED_TOOLS ${untranslated.join(', ')}; ${untranslated.length === 1 ? 'it does' : 'they do'} not apply.`);
  // Gemini reports tokens, not cost: without a list price there is no estimate, and so no --max-cost.
  const models = config.geminiModel ? [config.geminiModel] : GEMINI_CLI_DEFAULT_MODELS;
  const unpriced = models.filter((model) => modelPrice(model) === undefined);
  if (unpriced.length > 0) {
    const model = config.geminiModel ? `model ${config.geminiModel}` : `${unpriced.join(', ')}, which Gemini CLI may run by default (GEMINI_MODEL is not set)`;
    logger.warn(`No list price is known for ${model}: its calls get no cost estimate${config.maxCostUsd > 0 ? ' and --max-cost is not enforced' : ''}.`);
  }
  const secrets = Object.keys(agentEnv.env).filter(isSecretName).sort();
  const redaction = redactionWarning(commandEnvRedaction(agentEnv.env), secrets, geminiUserSettingsPath(agentEnv.env));
  if (redaction) logger.warn(redaction);
  return new GeminiBackend({
    command: config.geminiCommand,
    model: config.geminiModel,
    extraArgs: config.geminiExtraArgs,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger,
    now: () => ctx.clock.now(),
  });
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export function checkGeminiBeforeLoop(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, ctx.config.geminiCommand, ctx.config.geminiMinVersion, agentCliAbout('gemini'));
}
