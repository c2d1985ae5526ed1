import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The API key the fake provider is configured with; it must never appear in what Ralph writes. */
export const FAKE_OPENCODE_KEY = 'sk-fake-opencode-7Qm2Xv9Lr4Tz8Kp1';
export const FAKE_MODEL = 'fake/fake-model';

/**
 * The environment that runs the real OpenCode fully offline against a fake API: a throwaway
 * HOME and XDG directories (sessions, logs and caches land there), a provider bundled in the
 * binary (`@ai-sdk/openai-compatible`, so nothing is installed at run time) pointed at
 * 127.0.0.1, list prices for the fake model (so OpenCode reports a cost), and the start-up
 * fetches switched off: the models.dev catalogue, the default plugins, LSP downloads, reading
 * Claude Code's files, auto-update and sharing.
 */
export function opencodeOfflineEnv(home: string, baseURL: string, permission?: Record<string, unknown>): Record<string, string> {
  for (const dir of ['.config', '.local/share', '.cache', '.local/state']) mkdirSync(join(home, dir), { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL, apiKey: FAKE_OPENCODE_KEY },
        models: { 'fake-model': { name: 'Fake model', cost: { input: 3, output: 15, cache_read: 0.3 } } },
      },
    },
    ...(permission ? { permission } : {}),
  };
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
}
