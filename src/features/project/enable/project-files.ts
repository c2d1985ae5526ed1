import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_FILES, DETECTION_FILES, type ProjectFiles } from './detect-project.js';

/** Manifests bigger than this are not read (a generated file, not a manifest). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The detection files present at the top of `dir`, with the contents detection needs. */
export function readProjectFiles(dir: string): ProjectFiles {
  const files = new Map<string, string>();
  for (const name of DETECTION_FILES) {
    const path = join(dir, name);
    let size: number;
    try {
      const stat = statSync(path);
      if (!stat.isFile()) continue;
      size = stat.size;
    } catch {
      continue;
    }
    files.set(name, CONTENT_FILES.has(name) && size <= MAX_MANIFEST_BYTES ? readFileSync(path, 'utf8') : '');
  }
  return files;
}

const PRD_DIRS = ['.', 'docs', 'specs', 'requirements'];
const PRD_NAME = /(prd|requirements|spec|specification)[^/]*\.(md|txt)$/i;

/** Likely PRD/spec documents, as paths relative to `dir`, without duplicates. */
export function findPrdFiles(dir: string): string[] {
  const found = new Set<string>();
  const scan = (rel: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isFile() && PRD_NAME.test(entry.name)) found.add(path);
      else if (entry.isDirectory() && depth > 0 && !entry.name.startsWith('.') && entry.name !== 'node_modules') scan(path, depth - 1);
    }
  };
  for (const rel of PRD_DIRS) if (existsSync(join(dir, rel))) scan(rel, rel === '.' ? 0 : 1);
  return [...found].sort();
}
