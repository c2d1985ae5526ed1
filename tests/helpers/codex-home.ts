// A throwaway CODEX_HOME (and HOME) that points the real Codex CLI at a fake Responses API on
// 127.0.0.1: its own model provider, retries cut down so error tests stay short, and everything
// that would contact an outside host (analytics, plugins, apps) turned off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE_API_KEY } from './fake-api/openai-responses.js';
import { tempDir } from './temp-dir.js';

/** The model the tests run: one the price table lists, so each call gets an estimated cost. */
export const CODEX_TEST_MODEL = 'gpt-5.1-codex';

/** The variable the fake provider reads its key from: the one a real Codex setup uses, which Ralph passes to Codex. */
export const CODEX_TEST_KEY_VAR = 'OPENAI_API_KEY';

export interface CodexHomeOptions {
  /** Retries of a failed request / a broken stream (Codex's own defaults are 4 and 5). */
  requestRetries?: number;
  streamRetries?: number;
  /** Milliseconds without a stream event before Codex gives up on the stream. */
  streamIdleMs?: number;
  /** The key the CLI sends (default: the one the fake accepts). */
  apiKey?: string;
  /** The variable the provider's `env_key` names and the key is set in (default CODEX_TEST_KEY_VAR). */
  keyVar?: string;
}

/** Writes `<dir>/home/.codex/config.toml`; returns the environment the CLI must run with. */
export function codexHome(dir: string, baseUrl: string, options: CodexHomeOptions = {}): Record<string, string> {
  const home = join(dir, 'home');
  const codexDir = join(home, '.codex');
  mkdirSync(codexDir, { recursive: true });
  writeFileSync(
    join(codexDir, 'config.toml'),
    [
      `model = "${CODEX_TEST_MODEL}"`,
      'model_provider = "fake"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${baseUrl}"`,
      `env_key = "${options.keyVar ?? CODEX_TEST_KEY_VAR}"`,
      'wire_api = "responses"',
      `request_max_retries = ${options.requestRetries ?? 0}`,
      `stream_max_retries = ${options.streamRetries ?? 0}`,
      `stream_idle_timeout_ms = ${options.streamIdleMs ?? 20_000}`,
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      'remote_plugin = false',
      'apps = false',
      '',
    ].join('\n'),
  );
  return {
    HOME: home,
    CODEX_HOME: codexDir,
    [options.keyVar ?? CODEX_TEST_KEY_VAR]: options.apiKey ?? FAKE_API_KEY,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    // Where bubblewrap is installed, Codex's sandbox runs a helper it links into CODEX_HOME, and it
    // refuses to do so inside the temporary directory: this throwaway home lives in /tmp, so the
    // temporary directory Codex is told of is another one.
    TMPDIR: tempDir('codex-tmp-'),
    // Codex prints a usage limit's reset in local time: it must read the clock in the test's zone.
    ...(process.env['TZ'] ? { TZ: process.env['TZ'] } : {}),
  };
}
