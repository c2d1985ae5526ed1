import { readFileSync } from 'node:fs';
import type { AgentOwnEnv } from '../../core/agent-env.js';
import { geminiUserSettingsPath } from './gemini-command-env.js';

/**
 * What Gemini CLI needs of the environment for itself: its key and settings (GEMINI_*,
 * GOOGLE_GEMINI_BASE_URL), the Google credentials of its other ways to log in (Vertex AI, a
 * Google API key, application credentials), and every variable the user's own settings.json
 * names as `$NAME` or `${NAME}` (Gemini expands them, e.g. in an MCP server's `env`). A
 * project's `.gemini/settings.json` is not read: the agent can write it.
 */
export function geminiCredentials(userSettingsText: string | undefined): AgentOwnEnv {
  const named = userSettingsText === undefined ? [] : [...userSettingsText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g)];
  const fromSettings = named.map((m) => (m[1] ?? m[2]) as string);
  return {
    prefixes: ['GEMINI_', 'GOOGLE_GEMINI_', 'GOOGLE_GENAI_'],
    names: [...new Set(['GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_APPLICATION_CREDENTIALS', ...fromSettings])].sort(),
  };
}

/** The text of the user's Gemini settings.json, or undefined when there is none to read. */
export function readGeminiUserSettings(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return readFileSync(geminiUserSettingsPath(env), 'utf8');
  } catch {
    return undefined;
  }
}
