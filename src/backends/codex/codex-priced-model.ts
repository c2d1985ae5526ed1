import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The model a Codex call runs with, for pricing its tokens (Codex's events never name it):
 * CODEX_MODEL, else a `-m`/`--model` in CODEX_EXTRA_ARGS, else the top-level `model = "…"` of
 * Codex's own config.toml. '' when none says: Codex's built-in default, which Ralph does not price.
 */
export function pricedModel(configured: string, extraArgs: readonly string[], configToml: string | undefined): string {
  if (configured) return configured;
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    const inline = /^--model=(.+)$/.exec(arg);
    if (inline) return inline[1] as string;
    if ((arg === '-m' || arg === '--model') && i + 1 < extraArgs.length) return extraArgs[i + 1] as string;
  }
  return configToml === undefined ? '' : topLevelModel(configToml);
}

/** `model = "…"` before the first table header of a TOML file. */
export function topLevelModel(toml: string): string {
  for (const line of toml.split('\n')) {
    const text = line.trim();
    if (text.startsWith('[')) return '';
    const m = /^model\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(text);
    if (m) return m[1] ?? m[2] ?? '';
  }
  return '';
}

/** Codex's config.toml as the CLI finds it ($CODEX_HOME, else ~/.codex), or undefined. */
export function readCodexConfig(env: NodeJS.ProcessEnv): string | undefined {
  const home = env['CODEX_HOME'] || (env['HOME'] ? join(env['HOME'], '.codex') : undefined);
  if (!home) return undefined;
  try {
    return readFileSync(join(home, 'config.toml'), 'utf8');
  } catch {
    return undefined;
  }
}
