import { isOn, type AgentOwnEnv } from '../../core/agent-env.js';

/** Claude Code's own API key, OAuth token and settings. */
const CLAUDE_PREFIXES = ['ANTHROPIC_', 'CLAUDE_'];

/** The AWS credentials, profile and region Claude Code uses on Amazon Bedrock. */
const BEDROCK_NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_PROFILE',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
];

/** The Google credentials, project and region Claude Code uses on Vertex AI. */
const VERTEX_NAMES = ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'CLOUD_ML_REGION'];

/**
 * What Claude Code needs of the environment for itself: its own variables, and the cloud
 * credentials of the provider it was told to use (CLAUDE_CODE_USE_BEDROCK → AWS,
 * CLAUDE_CODE_USE_VERTEX → Google; per-model Vertex regions are VERTEX_REGION_*). Nothing
 * of another agent's.
 */
export function claudeCredentials(env: Readonly<Record<string, string | undefined>>): AgentOwnEnv {
  const names: string[] = [];
  const prefixes = [...CLAUDE_PREFIXES];
  if (isOn(env['CLAUDE_CODE_USE_BEDROCK'])) names.push(...BEDROCK_NAMES);
  if (isOn(env['CLAUDE_CODE_USE_VERTEX'])) {
    names.push(...VERTEX_NAMES);
    prefixes.push('VERTEX_REGION_');
  }
  return { prefixes, names };
}
