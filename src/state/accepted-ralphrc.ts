import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AcceptedRalphrc } from '../config/ralphrc-review.js';
import { writeJsonAtomic } from './json-file.js';
import type { RalphPaths } from './paths.js';
import { ensureRuntimeDir } from './runtime-dir.js';

/**
 * The .ralphrc values the last run accepted (src/config/ralphrc-review.ts), kept in the run-time
 * folder beside the lock: outside `.ralph/`, where a sandboxed agent cannot write and `git clean`
 * or `rm -rf .ralph` does not reach. Secret values are kept only as digests.
 */
function acceptedFile(paths: RalphPaths): string {
  return join(paths.runtimeDir, 'accepted-ralphrc.json');
}

function isAccepted(value: unknown): value is AcceptedRalphrc {
  if (typeof value !== 'object' || value === null) return false;
  const { version, entries } = value as { version?: unknown; entries?: unknown };
  if (version !== 1 || typeof entries !== 'object' || entries === null) return false;
  return Object.values(entries).every(
    (entry: unknown) =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as { digest?: unknown }).digest === 'string' &&
      ['string', 'undefined'].includes(typeof (entry as { shown?: unknown }).shown),
  );
}

/** What the last run accepted; undefined before the first run (or when the record is unreadable). */
export function readAcceptedRalphrc(paths: RalphPaths): AcceptedRalphrc | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(acceptedFile(paths), 'utf8'));
    return isAccepted(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function saveAcceptedRalphrc(paths: RalphPaths, accepted: AcceptedRalphrc): void {
  // Made private (and checked) as the lock's folder is: outside git it is a per-user folder in /tmp.
  ensureRuntimeDir(paths.project);
  writeJsonAtomic(acceptedFile(paths), accepted);
}
