import { CONFIG_FIELDS, CONFIG_KEYS, FIELD_BY_NAME, INFORMATIONAL_KEYS, UNSUPPORTED_KEY, defaultConfig, type ConfigField, type RalphConfig } from './keys.js';
import { capMessages, clipText, MAX_SHOWN_CHARS, MAX_SHOWN_MESSAGES } from '../core/message-bounds.js';
import { didYouMean } from '../core/nearest-word.js';
import { verifyPlacementConflict } from './verify-placement.js';
import { parseRalphrc } from './ralphrc.js';
import { routeAgentFlags, selectedBackend } from './agent-flags.js';
import type { ValueType } from './value-types.js';
import type { FlagValues, ValueOrigin } from './config-origins.js';

/** Lists a repeated flag adds to (on top of .ralphrc and the environment) instead of replacing. */
type ListField = 'agentEnv' | 'sandboxAllowDomains' | 'sandboxAllowWrite';
const ADDING_LISTS: ReadonlySet<ConfigField> = new Set<ListField>(['agentEnv', 'sandboxAllowDomains', 'sandboxAllowWrite']);

export type { ConfigSource, FlagValues, ValueOrigin } from './config-origins.js';

export interface ConfigInputs {
  ralphrc?: { path: string; text: string } | undefined;
  env: Readonly<Record<string, string | undefined>>;
  flags: FlagValues;
}

export interface LoadedConfig {
  config: RalphConfig;
  origins: Record<ConfigField, ValueOrigin>;
  warnings: string[];
  errors: string[];
}

function describeBad(where: string, name: string, raw: string, expected: string): string {
  return `${where}: ${name}="${clipText(raw)}" is invalid; expected ${expected}`;
}

function applyRaw<F extends ConfigField>(
  config: RalphConfig,
  field: F,
  raw: string,
  type: ValueType<RalphConfig[F]>,
): { ok: true } | { ok: false; expected: string } {
  const parsed = type.parse(raw);
  if (!parsed.ok) return parsed;
  config[field] = parsed.value;
  return { ok: true };
}

/**
 * Layers configuration uniformly for every key: flag > environment > .ralphrc >
 * default (the original lets .ralphrc beat flags for some keys). Returns errors as
 * data; the caller decides to stop.
 */
/**
 * The nearest known key for one of the unknown keys that will be shown: only
 * the first screenful is printed, and a key longer than any real one is no typo.
 */
function suggestKey(key: string, shownBefore: number): string {
  return shownBefore < MAX_SHOWN_MESSAGES && key.length <= MAX_SHOWN_CHARS ? didYouMean(key, FIELD_BY_NAME.keys()) : '';
}

export function loadConfig(inputs: ConfigInputs): LoadedConfig {
  const config = defaultConfig();
  const origins = Object.fromEntries(CONFIG_FIELDS.map((f) => [f, { source: 'default' } as ValueOrigin])) as Record<ConfigField, ValueOrigin>;
  const warnings: string[] = [];
  const unknownKeys: string[] = [];
  const errors: string[] = [];

  if (inputs.ralphrc) {
    const file = inputs.ralphrc.path;
    const parsed = parseRalphrc(inputs.ralphrc.text, inputs.env);
    for (const issue of parsed.errors) errors.push(`${file}:${issue.line}: ${issue.message}`);
    for (const entry of parsed.entries) {
      const where = `${file}:${entry.line}`;
      const field = FIELD_BY_NAME.get(entry.key);
      if (field === undefined) {
        if (UNSUPPORTED_KEY.test(entry.key)) warnings.push(`${where}: ${clipText(entry.key)} is not supported by this version of Ralph (ignored)`);
        else if (!INFORMATIONAL_KEYS.has(entry.key))
          unknownKeys.push(`${where}: unknown key ${clipText(entry.key)} (ignored)${suggestKey(entry.key, unknownKeys.length)}`);
        continue;
      }
      if (entry.value === '') continue;
      const spec = CONFIG_KEYS[field];
      const result = applyRaw(config, field, entry.value, spec.type as ValueType<RalphConfig[typeof field]>);
      if (result.ok) origins[field] = { source: 'ralphrc', where };
      else errors.push(describeBad(where, entry.key, entry.value, result.expected));
    }
  }

  for (const field of CONFIG_FIELDS) {
    const spec = CONFIG_KEYS[field];
    for (const name of [spec.key, ...(spec.aliases ?? [])]) {
      const raw = inputs.env[name];
      if (raw === undefined || raw === '') continue;
      const result = applyRaw(config, field, raw, spec.type as ValueType<RalphConfig[typeof field]>);
      if (result.ok) origins[field] = { source: 'env', where: name };
      else errors.push(describeBad(`environment variable ${name}`, name, raw, result.expected));
      break;
    }
  }

  const routed = routeAgentFlags(inputs.flags, selectedBackend(inputs.flags, config.backend));
  warnings.push(...routed.warnings);
  for (const field of CONFIG_FIELDS) {
    const raw = routed.flags[field];
    if (raw === undefined) continue;
    const spec = CONFIG_KEYS[field];
    const flag = routed.flagNames[field] ?? spec.flag?.name ?? field;
    if (typeof raw === 'boolean') {
      (config as unknown as Record<string, unknown>)[field] = field === 'checkpoint' ? (raw ? 'on' : 'off') : raw;
      origins[field] = { source: 'flag', where: flag };
      continue;
    }
    const values = typeof raw === 'string' ? [raw] : raw;
    let merged: Record<string, string> | undefined;
    let names: string[] | undefined;
    let failed = false;
    for (const value of values) {
      const parsed = (spec.type as ValueType<unknown>).parse(value);
      if (!parsed.ok) {
        errors.push(`invalid value for ${flag}: "${clipText(value)}"; expected ${parsed.expected}`);
        failed = true;
        break;
      }
      if (field === 'verifyEnv') merged = { ...(merged ?? {}), ...(parsed.value as Record<string, string>) };
      else if (ADDING_LISTS.has(field)) names = [...(names ?? []), ...(parsed.value as string[])];
      else (config as unknown as Record<string, unknown>)[field] = parsed.value;
    }
    if (failed) continue;
    if (merged !== undefined) config.verifyEnv = { ...config.verifyEnv, ...merged };
    // Pass-through names and sandbox allowances add up: the flag adds to what .ralphrc or the environment named.
    if (names !== undefined) {
      const listField = field as ListField;
      config[listField] = [...new Set([...config[listField], ...names])];
    }
    origins[field] = { source: 'flag', where: flag };
  }

  const conflict = verifyPlacementConflict(config, origins);
  if (conflict !== undefined) errors.push(conflict);

  // A file of endless bad lines still gives a screenful of messages and a count.
  return {
    config,
    origins,
    warnings: [...capMessages(warnings, 'warnings'), ...capMessages(unknownKeys, 'unknown keys (ignored)')],
    errors: capMessages(errors, 'problems'),
  };
}

/** Printable value of a field, as it would be written in .ralphrc. */
export function formatConfigValue(config: RalphConfig, field: ConfigField): string {
  const spec = CONFIG_KEYS[field] as { type: ValueType<unknown> };
  return spec.type.format(config[field]);
}
