import { readFileSync } from 'node:fs';
import { parseRalphrc } from '../../config/ralphrc.js';
import { ralphPaths } from '../../state/paths.js';

/** The value a project's .ralphrc gives `key` (the last assignment wins), or undefined. */
export function readRalphrcValue(projectDir: string, key: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(ralphPaths(projectDir).ralphrc, 'utf8');
  } catch {
    return undefined;
  }
  const entries = parseRalphrc(text).entries.filter((entry) => entry.key === key);
  return entries.at(-1)?.value;
}
