import { CONFIG_FIELDS, CONFIG_KEYS, type ConfigFlag } from '../config/keys.js';
import type { FlagValues } from '../config/load-config.js';

/**
 * The loop flags typed on `ralph queue run`, back as command-line arguments
 * for each item's `ralph run`: the child reads them exactly as if the user had
 * typed them there (flag > environment > .ralphrc > default).
 */
export function configFlagsToArgv(flags: FlagValues): string[] {
  const argv: string[] = [];
  for (const field of CONFIG_FIELDS) {
    const value = flags[field];
    const flag = (CONFIG_KEYS[field] as { flag?: ConfigFlag }).flag;
    if (value === undefined || !flag) continue;
    if (typeof value === 'boolean') {
      // `--no-continue` is itself the flag that sets false; others have an `off` twin.
      const name = flag.name.startsWith('--no-') ? (value ? undefined : flag.name) : value ? flag.name : flag.off?.name;
      if (name !== undefined) argv.push(name);
    } else if (typeof value === 'string') {
      argv.push(flag.name, value);
    } else {
      for (const one of value) argv.push(flag.name, one);
    }
  }
  return argv;
}
