import { type Command, Option } from 'commander';
import { CONFIG_FIELDS, CONFIG_KEYS, type ConfigField, type ConfigFlag } from '../config/keys.js';
import type { FlagValues } from '../config/load-config.js';
import type { ValueType } from '../config/value-types.js';

/**
 * The options of `ralph` and `ralph run` that set a configuration value
 * (flag > environment > .ralphrc > default), generated from the key registry:
 * adding a key with a flag there is all it takes to accept and document it.
 */

interface FlagOfField {
  field: ConfigField;
  flag: ConfigFlag;
}

const FLAGS: readonly FlagOfField[] = CONFIG_FIELDS.flatMap((field) => {
  const flag = CONFIG_KEYS[field].flag;
  return flag ? [{ field, flag }] : [];
});

/** `-c, --calls <num>`: the flag as commander declares it and help shows it. */
export function flagSyntax(flag: Pick<ConfigFlag, 'name' | 'short' | 'value'>): string {
  return [flag.short ? `${flag.short}, ` : '', flag.name, flag.value ? ` ${flag.value}` : ''].join('');
}

/**
 * The default is said only where it tells the reader something: a flag that
 * takes a value, with a default that is neither empty nor zero (zero means
 * "no limit", which the help line already says) nor a list.
 */
export function flagHelp(field: ConfigField): string {
  const spec = CONFIG_KEYS[field] as { flag?: ConfigFlag; type: ValueType<unknown>; default: unknown };
  const flag = spec.flag;
  if (!flag) return '';
  const value = spec.default;
  const worthSaying = flag.value !== undefined && ((typeof value === 'string' && value !== '') || (typeof value === 'number' && value > 0));
  return worthSaying ? `${flag.help} (default ${spec.type.format(value)})` : flag.help;
}

function collectValue(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function addConfigOptions(command: Command): void {
  for (const { field, flag } of FLAGS) {
    const option = new Option(flagSyntax(flag), flagHelp(field));
    if (flag.repeatable) option.argParser(collectValue);
    command.addOption(option);
    if (flag.off) command.addOption(new Option(flag.off.name, flag.off.help));
  }
}

/** Values of config flags the user actually typed (not commander defaults). */
export function readConfigFlags(command: Command): FlagValues {
  const opts = command.opts<Record<string, unknown>>();
  const out: FlagValues = {};
  for (const { field, flag } of FLAGS) {
    const name = new Option(flagSyntax(flag)).attributeName();
    if (command.getOptionValueSource(name) !== 'cli') continue;
    const value = opts[name];
    if (typeof value === 'string' || typeof value === 'boolean') out[field] = value;
    else if (Array.isArray(value)) out[field] = value.map(String);
  }
  return out;
}
