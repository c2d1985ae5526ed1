import { readFileSync } from 'node:fs';
import { parseIso } from '../core/time-format.js';
import type { RalphPaths } from './paths.js';

/**
 * A stop asked for with `ralph --stop` (or the dashboard) that the running
 * loop has not acted on yet: it looks for the request between steps and
 * removes it when it stops.
 */
export interface PendingStop {
  /** When the stop was asked for (ISO); null when the file does not say. */
  requestedAt: string | null;
}

/** The pending stop request, or undefined when none is waiting. The file's text is only trusted as a timestamp. */
export function readPendingStop(paths: RalphPaths): PendingStop | undefined {
  let text: string;
  try {
    text = readFileSync(paths.stopRequest, 'utf8').trim();
  } catch {
    return undefined;
  }
  const at = parseIso(text);
  return { requestedAt: at !== undefined ? new Date(at).toISOString() : null };
}
