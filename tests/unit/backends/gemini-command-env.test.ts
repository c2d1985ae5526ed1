import { describe, expect, it } from 'vitest';
import { geminiUserSettingsPath, redactionSetting, redactionWarning } from '../../../src/backends/gemini/gemini-command-env.js';

describe("Gemini CLI's redaction of credentials from the commands it runs", () => {
  it.each<[string, string | undefined, string]>([
    ['no settings file', undefined, 'off'],
    ['settings without it', '{"security":{"auth":{"selectedType":"gemini-api-key"}}}', 'off'],
    ['turned on', '{"security":{"environmentVariableRedaction":{"enabled":true}}}', 'on'],
    ['turned off', '{"security":{"environmentVariableRedaction":{"enabled":false}}}', 'off'],
    ['"true" as a string', '{"security":{"environmentVariableRedaction":{"enabled":"true"}}}', 'off'],
    [
      'turned on, with comments Gemini accepts',
      '{\n  // mine\n  "security": { /* keep keys out */ "environmentVariableRedaction": { "enabled": true } },\n  "url": "http://x//y"\n}',
      'on',
    ],
    ['a damaged file', '{"security": ', 'unknown'],
    ['not an object', 'null', 'off'],
  ])('reads %s as %s', (_name, text, expected) => {
    expect(redactionSetting(text)).toBe(expected);
  });

  it('finds the settings where Gemini does: GEMINI_CLI_HOME, else HOME', () => {
    expect(geminiUserSettingsPath({ HOME: '/home/u' })).toBe('/home/u/.gemini/settings.json');
    expect(geminiUserSettingsPath({ HOME: '/home/u', GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini/settings.json');
  });

  it('warns only when a credential would reach the commands, naming it and the setting to add', () => {
    const path = '/home/u/.gemini/settings.json';
    expect(redactionWarning('on', ['GEMINI_API_KEY'], path)).toBeUndefined();
    expect(redactionWarning('off', [], path)).toBeUndefined();
    expect(redactionWarning('off', ['GEMINI_API_KEY'], path)).toBe(
      'Gemini CLI may pass GEMINI_API_KEY on to the commands it runs. To keep it out, add "security": { "environmentVariableRedaction": { "enabled": true } } to /home/u/.gemini/settings.json (Ralph does not change your Gemini settings).',
    );
    expect(redactionWarning('unknown', ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], path)).toMatch(
      /^Ralph could not read \/home\/u\/\.gemini\/settings\.json, so Gemini CLI may pass GEMINI_API_KEY, GOOGLE_API_KEY on to the commands it runs\. To keep them out/,
    );
  });
});
