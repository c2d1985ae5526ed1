import { statSync } from 'node:fs';
import { badInput } from '../test/tool-error.js';

/**
 * Refuses a tool call whose directory input is not a directory (missing, a file): the agent gets
 * a bad-input error naming the input, `field`, rather than a command run in the wrong place.
 */
export function requireDirectory(dir: string, field: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw badInput(`${field} ${dir} is not a directory`, { [field]: dir });
}
