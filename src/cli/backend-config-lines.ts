import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { AGENTS, agentDeclaration } from '../backends/agents.js';
import { CONFIG_KEYS, type ConfigField } from '../config/keys.js';
import { formatConfigValue, type LoadedConfig, type ValueOrigin } from '../config/load-config.js';

/** Every config field that belongs to one backend's CLI, of any backend. */
export function backendSettingFields(): Set<ConfigField> {
  return new Set(AGENTS.flatMap((agent) => Object.values(agent.settings ?? {}).map((setting) => setting.field)));
}

function describeOrigin(origin: ValueOrigin): string {
  return origin.where ? `${origin.source}: ${origin.where}` : origin.source;
}

/**
 * The `ralph --config` lines of the agent the run would use: which backend and where that was
 * chosen, then its own settings, the command with the program it resolves to, so "which codex
 * would run?" is answered without guessing.
 */
export function backendConfigLines(loaded: LoadedConfig, findProgram: (file: string) => string | undefined): string[] {
  const { config, origins } = loaded;
  const entry = agentDeclaration(config.backend);
  const lines = [`Backend: ${config.backend} (${entry.displayName})  (${describeOrigin(origins.backend)})`];
  const settings = entry.settings;
  if (settings === undefined) return lines;
  const fields = Object.values(settings).map((setting) => setting.field as ConfigField);
  const width = Math.max(...fields.map((f) => CONFIG_KEYS[f].key.length));
  for (const field of fields) {
    let value = formatConfigValue(config, field) || '""';
    if (field === settings.command.field) {
      const file = (config[field] as string[])[0];
      const found = file === undefined ? undefined : findProgram(file);
      value += found === undefined ? '  → not found' : `  → ${found}`;
    }
    lines.push(`  ${CONFIG_KEYS[field].key.padEnd(width)}  ${value}  (${describeOrigin(origins[field])})`);
  }
  return lines;
}

/** Where a command's program is: a path as given (relative to cwd), else the first executable on PATH. */
export function findProgramOnPath(file: string, cwd: string, path: string | undefined): string | undefined {
  const candidates = file.includes('/')
    ? [isAbsolute(file) ? file : resolve(cwd, file)]
    : (path ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, file));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
