import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_FILES } from '../core/project-layout.js';

/**
 * Progress detection outside git: size and mtime of every file under the
 * project (bounded), compared before and after an iteration.
 */
const SKIPPED_DIRS = new Set(['.git', PROJECT_FILES.dir, 'node_modules', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', '.next', '.cache']);
export const FINGERPRINT_MAX_FILES = 20_000;

export type Fingerprint = Map<string, string>;

export function fingerprintTree(root: string, maxFiles = FINGERPRINT_MAX_FILES): Fingerprint {
  const out: Fingerprint = new Map();
  const stack = [root];
  while (stack.length > 0 && out.size < maxFiles) {
    const dir = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(full);
      } else if (entry.isFile()) {
        try {
          const st = statSync(full);
          out.set(relative(root, full), `${st.size}:${st.mtimeMs}`);
        } catch {
          // Vanished while walking.
        }
        if (out.size >= maxFiles) break;
      }
    }
  }
  return out;
}

export function diffFingerprints(before: Fingerprint, after: Fingerprint): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) if (before.get(path) !== stamp) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed.sort();
}
