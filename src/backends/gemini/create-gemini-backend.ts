import type { AgentOwnEnv } from '../../core/agent-env.js';
import { isSecretName } from '../../core/secret-env.js';
import type { AgentBackend } from '../../ports.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import { modelPrice } from '../price-table.js';
import { adviseOnWithheld, agentEnvFor, agentEnvironment } from '../agent-environment.js';
import type { BackendContext } from '../registry.js';
import { GeminiBackend } from './gemini-backend.js';
import { commandEnvRedaction, geminiUserSettingsPath, redactionWarning } from './gemini-command-env.js';
import { geminiCredentials, readGeminiUserSettings } from './gemini-credentials.js';
import { buildGeminiPolicy } from './gemini-policy.js';

const INSTALL_HINT =
  'Install Gemini CLI with `npm install -g @google/gemini-cli` (see https://geminicli.com), or point GEMINI_CMD in .ralphrc at it ' +
  '(for example GEMINI_CMD="npx @google/gemini-cli"). To try Ralph without an agent, use --backend mock or run `ralph demo`.';
const UPDATE_HINT = 'Update it with `npm install -g @google/gemini-cli@latest`, then run ralph again.';

/** Gemini CLI's own variables, and those the user's Gemini settings name (see geminiCredentials). */
function geminiOwn(ctx: BackendContext): AgentOwnEnv {
  return geminiCredentials(readGeminiUserSettings(ctx.env));
}

/** The Gemini backend of a loop: the configured command, model and tools, in the filtered environment. */
export function createGeminiBackend(ctx: BackendContext): AgentBackend {
  const { config, logger } = ctx;
  const agentEnv = agentEnvironment(ctx, geminiOwn(ctx));
  const { untranslated } = buildGeminiPolicy(config.allowedTools);
  if (untranslated.length > 0)
    logger.warn(`Gemini CLI has no equivalent of ALLOWED_TOOLS ${untranslated.join(', ')}; ${untranslated.length === 1 ? 'it does' : 'they do'} not apply.`);
  // Gemini reports tokens, not cost: without a list price there is no estimate, and so no --max-cost.
  if (modelPrice(config.geminiModel) === undefined) {
    const model = config.geminiModel ? `model ${config.geminiModel}` : "Gemini CLI's default model (GEMINI_MODEL is not set)";
    logger.warn(`No list price is known for ${model}: its calls get no cost estimate${config.maxCostUsd > 0 ? ' and --max-cost is not enforced' : ''}.`);
  }
  const secrets = Object.keys(agentEnv.env).filter(isSecretName).sort();
  const redaction = redactionWarning(commandEnvRedaction(agentEnv.env), secrets, geminiUserSettingsPath(agentEnv.env));
  if (redaction) logger.warn(redaction);
  const backend = new GeminiBackend({
    command: config.geminiCommand,
    model: config.geminiModel,
    extraArgs: config.geminiExtraArgs,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger,
    now: () => ctx.clock.now(),
  });
  return adviseOnWithheld(backend, agentEnv.withheld);
}

/** A missing or too old CLI is one clear message before the loop starts, not a loop of failures. */
export function checkGeminiBeforeLoop(ctx: BackendContext): Promise<void> {
  const about = { agent: 'Gemini CLI', commandKey: 'GEMINI_CMD', installHint: INSTALL_HINT, updateHint: UPDATE_HINT };
  return checkCliBeforeLoop(ctx, ctx.config.geminiCommand, ctx.config.geminiMinVersion, about, agentEnvFor(ctx, geminiOwn(ctx)).env);
}
