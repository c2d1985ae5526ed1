import { BACKEND_NAMES, type BackendName } from './backend-names.js';
import type { RalphConfig } from './ralph-config.js';

/** The config fields whose values are of type T (the backend's own field left out: its type is made from the names above). */
type AgentField = Exclude<keyof RalphConfig, 'backend'>;
type FieldOf<T> = { [F in AgentField]: RalphConfig[F] extends T ? F : never }[AgentField];

/**
 * Which .ralphrc settings belong to one agent CLI, by config field: `--model` and `--effort`
 * set this backend's own keys, and `ralph --config` shows these first. A setting the CLI does
 * not have is left out (`--effort` then says it is ignored). Kept in config, apart from the registry:
 * the settings need it and must not load any backend's code.
 */
export interface BackendSettings {
  command: FieldOf<string[]>;
  model: FieldOf<string>;
  effort?: FieldOf<string>;
  extraArgs: FieldOf<string[]>;
  minVersion: FieldOf<string>;
}

/** The settings of each backend that runs a CLI; the mock agent has none. */
export const BACKEND_SETTINGS: { readonly [N in BackendName]?: BackendSettings } = {
  claude: { command: 'claudeCommand', model: 'model', effort: 'effort', extraArgs: 'claudeExtraArgs', minVersion: 'claudeMinVersion' },
  codex: { command: 'codexCommand', model: 'codexModel', effort: 'codexEffort', extraArgs: 'codexExtraArgs', minVersion: 'codexMinVersion' },
  gemini: { command: 'geminiCommand', model: 'geminiModel', extraArgs: 'geminiExtraArgs', minVersion: 'geminiMinVersion' },
  opencode: { command: 'opencodeCommand', model: 'opencodeModel', extraArgs: 'opencodeExtraArgs', minVersion: 'opencodeMinVersion' },
};

/** The backends whose CLI has a setting, for help texts ("claude, codex"). */
export function backendsWithSetting(setting: keyof BackendSettings): BackendName[] {
  return BACKEND_NAMES.filter((name) => BACKEND_SETTINGS[name]?.[setting] !== undefined);
}
