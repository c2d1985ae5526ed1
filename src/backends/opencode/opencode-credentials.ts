import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentOwnEnv } from '../../core/agent-env.js';

/**
 * The variables OpenCode reads a provider's credentials from, for the providers it knows
 * without configuration. OpenCode talks to many providers; it gets the key of the one it is
 * told to use (`--model provider/model`, or `model` in the user's OpenCode configuration),
 * never every key the user has: a Claude key is OpenCode's only when it runs an Anthropic model.
 */
const PROVIDER_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
  openai: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  'google-vertex': ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'VERTEX_LOCATION'],
  'amazon-bedrock': ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_PROFILE', 'AWS_REGION'],
  azure: ['AZURE_RESOURCE_NAME', 'AZURE_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  groq: ['GROQ_API_KEY'],
  xai: ['XAI_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  togetherai: ['TOGETHER_API_KEY'],
  fireworks: ['FIREWORKS_API_KEY'],
  cerebras: ['CEREBRAS_API_KEY'],
  huggingface: ['HF_TOKEN'],
};

/** `"model": "provider/model"` and `"small_model": …` of an OpenCode configuration (JSON with comments). */
function configuredModels(text: string): string[] {
  return [...text.matchAll(/"(?:model|small_model)"\s*:\s*"([^"]+)"/g)].map((m) => m[1] as string);
}

/** The variables an OpenCode configuration substitutes with `{env:NAME}` (in `options.apiKey` and anywhere else). */
function substitutedVariables(text: string): string[] {
  return [...text.matchAll(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] as string);
}

/** The model of `--model`/`-m` in OpenCode's extra arguments. */
function modelOfArgs(extraArgs: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    if ((arg === '--model' || arg === '-m') && i + 1 < extraArgs.length) found.push(extraArgs[i + 1] as string);
    else if (arg.startsWith('--model=')) found.push(arg.slice('--model='.length));
  }
  return found;
}

/**
 * What OpenCode needs of the environment for itself: its own settings (OPENCODE_*), the key of
 * the provider of its model, and every variable the user's OpenCode configuration names with
 * `{env:NAME}`. `configTexts` are the user's configuration files and OPENCODE_CONFIG_CONTENT;
 * a project's opencode.json is not read: the agent can write it.
 */
export function opencodeCredentials(model: string, extraArgs: readonly string[], configTexts: readonly string[]): AgentOwnEnv {
  const names = new Set<string>();
  const models = [model, ...modelOfArgs(extraArgs), ...configTexts.flatMap(configuredModels)].filter((m) => m !== '');
  for (const m of models) for (const name of PROVIDER_VARIABLES[m.split('/', 1)[0] as string] ?? []) names.add(name);
  for (const text of configTexts) for (const name of substitutedVariables(text)) names.add(name);
  return { prefixes: ['OPENCODE_'], names: [...names].sort() };
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The user's OpenCode configuration as OpenCode finds it: the global files, OPENCODE_CONFIG and OPENCODE_CONFIG_CONTENT. */
export function readOpencodeUserConfig(env: Readonly<Record<string, string | undefined>>): string[] {
  const configHome = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  const files = ['opencode.json', 'opencode.jsonc', 'config.json'].map((name) => join(configHome, 'opencode', name));
  const custom = env['OPENCODE_CONFIG'];
  if (custom) files.push(custom);
  const texts = files.map(readIfPresent).filter((text): text is string => text !== undefined);
  const inline = env['OPENCODE_CONFIG_CONTENT'];
  if (inline) texts.push(inline);
  return texts;
}
