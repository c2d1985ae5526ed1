import type { AgentSettings } from '../backends/agent-declaration.js';
import { agentSettingField, BACKEND_NAMES, type BackendName } from '../backends/agents.js';
import { oneOf } from './value-types.js';
import type { ConfigField } from './keys.js';
import type { FlagValues } from './load-config.js';

/** The flags that name a setting every agent CLI has under its own key. */
const AGENT_FLAGS = [
  { field: 'model', setting: 'model', flag: '--model', what: 'model' },
  { field: 'effort', setting: 'effort', flag: '--effort', what: 'effort' },
] as const satisfies readonly { field: ConfigField; setting: keyof AgentSettings; flag: string; what: string }[];

export interface RoutedAgentFlags {
  /** The flag values, with --model and --effort moved to the selected backend's own fields. */
  flags: FlagValues;
  /** The flag that set a field it is not declared on (`codexModel` → `--model`). */
  flagNames: Partial<Record<ConfigField, string>>;
  /** One line for each flag the selected backend has no setting for. */
  warnings: string[];
}

/**
 * `--model` and `--effort` mean "for the agent this run uses": they set that backend's own key
 * (CODEX_MODEL, GEMINI_MODEL, …), so .ralphrc keeps one value per backend and switching
 * backends never hands one agent's model name to another. A backend without the setting gets
 * nothing, and the flag is reported as ignored rather than dropped without a word.
 */
export function routeAgentFlags(flags: FlagValues, backend: BackendName): RoutedAgentFlags {
  const routed: FlagValues = { ...flags };
  const flagNames: Partial<Record<ConfigField, string>> = {};
  const warnings: string[] = [];
  for (const { field, setting, flag, what } of AGENT_FLAGS) {
    const raw = flags[field];
    if (raw === undefined) continue;
    delete routed[field];
    const target = agentSettingField(backend, setting) as ConfigField | undefined;
    if (target === undefined) {
      warnings.push(`the ${backend} backend has no ${what} setting: ${flag} ${String(raw)} is ignored`);
      continue;
    }
    routed[target] = raw;
    flagNames[target] = flag;
  }
  return { flags: routed, flagNames, warnings };
}

/** The backend a run will use: a valid --backend flag, else what the lower layers chose. */
export function selectedBackend(flags: FlagValues, layered: BackendName): BackendName {
  const raw = flags.backend;
  if (typeof raw !== 'string') return layered;
  const parsed = oneOf(BACKEND_NAMES).parse(raw);
  return parsed.ok ? parsed.value : layered;
}
