import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Whether Gemini CLI keeps its own credentials from the shell commands it runs.
 *
 * Gemini CLI hands its whole environment, API key included, to every command the model asks
 * for, unless the setting `security.environmentVariableRedaction.enabled` is on: then it drops
 * credential-looking variables from those commands while still using them itself. Ralph cannot
 * turn it on for one run: Gemini reads that setting only from the user's settings, the
 * project's `.gemini/settings.json` (which the agent could rewrite) or system files that must
 * be owned by root. So Ralph checks the user's settings and, when the setting is off, says
 * how to turn it on rather than changing the user's Gemini configuration behind their back.
 */
export type CommandEnvRedaction = 'on' | 'off' | 'unknown';

/** The redaction setting in the text of Gemini's user settings.json (JSON with comments). */
export function redactionSetting(settingsText: string | undefined): CommandEnvRedaction {
  if (settingsText === undefined) return 'off';
  let settings: unknown;
  try {
    settings = JSON.parse(stripJsonComments(settingsText));
  } catch {
    return 'unknown';
  }
  const security = (settings as { security?: { environmentVariableRedaction?: { enabled?: unknown } } } | null)?.security;
  return security?.environmentVariableRedaction?.enabled === true ? 'on' : 'off';
}

/** Removes line and block comments outside strings, as Gemini CLI accepts them in settings.json. */
function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '"') {
      const end = closingQuote(text, i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else out += c;
  }
  return out;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** Gemini CLI's user settings file for this environment (GEMINI_CLI_HOME, else the home folder). */
export function geminiUserSettingsPath(env: NodeJS.ProcessEnv): string {
  return join(env['GEMINI_CLI_HOME'] || env['HOME'] || homedir(), '.gemini', 'settings.json');
}

/** Reads the user's Gemini settings and says whether its commands are kept from its credentials. */
export function commandEnvRedaction(env: NodeJS.ProcessEnv): CommandEnvRedaction {
  let text: string | undefined;
  try {
    text = readFileSync(geminiUserSettingsPath(env), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return 'unknown';
  }
  return redactionSetting(text);
}

/** The warning for a run whose Gemini would pass `secrets` on to its commands, or undefined. */
export function redactionWarning(redaction: CommandEnvRedaction, secrets: readonly string[], settingsPath: string): string | undefined {
  if (redaction === 'on' || secrets.length === 0) return undefined;
  const names = secrets.join(', ');
  const why = redaction === 'unknown' ? `Ralph could not read ${settingsPath}, so ` : '';
  return (
    `${why}Gemini CLI may pass ${names} on to the commands it runs. To keep ${secrets.length === 1 ? 'it' : 'them'} out, add ` +
    `"security": { "environmentVariableRedaction": { "enabled": true } } to ${settingsPath} (Ralph does not change your Gemini settings).`
  );
}
