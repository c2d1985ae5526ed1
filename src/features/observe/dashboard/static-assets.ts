import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { RalphError } from '../../../errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface StaticAsset {
  type: string;
  body: Buffer;
}

/**
 * The page's files, built into the package by `npm run build`, read once at
 * start: the server answers from this table only, so no request path ever
 * reaches the file system.
 */
export function loadStaticAssets(dir: string): Map<string, StaticAsset> {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch (error) {
    throw new RalphError(
      `The dashboard's page is missing (${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      1,
      'Build it with npm run build (a source checkout), or reinstall ralph.',
    );
  }
  if (!names.includes('index.html'))
    throw new RalphError(`The dashboard's page is missing (no index.html in ${dir}).`, 1, 'Build it with npm run build, or reinstall ralph.');
  const assets = new Map<string, StaticAsset>();
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type !== undefined) assets.set(`/${name}`, { type, body: readFileSync(join(dir, name)) });
  }
  return assets;
}
