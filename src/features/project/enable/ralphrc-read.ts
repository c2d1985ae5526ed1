import { parseRalphrc } from '../../../config/ralphrc.js';
import { ralphPaths } from '../../../state/paths.js';
import { readRalphrcFile } from '../../../state/ralphrc-file.js';

/** The value a project's .ralphrc gives `key` (the last assignment wins), or undefined. */
export function readRalphrcValue(projectDir: string, key: string): string | undefined {
  let text: string | undefined;
  try {
    text = readRalphrcFile(ralphPaths(projectDir).ralphrc);
  } catch {
    // Unreadable or too large: the command that loads the configuration says so.
    return undefined;
  }
  if (text === undefined) return undefined;
  const entries = parseRalphrc(text).entries.filter((entry) => entry.key === key);
  return entries.at(-1)?.value;
}
