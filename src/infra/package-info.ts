import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read from package.json (two levels above src/infra and dist/infra). */
export function packageVersion(): string {
  if (cached === undefined) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
      cached = typeof pkg === 'object' && pkg !== null && typeof (pkg as { version?: unknown }).version === 'string' ? (pkg as { version: string }).version : '0.0.0';
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}

/** The installed package's root directory (holds bin/, dist/, templates/). */
export function packageRoot(): string {
  return new URL('../../', import.meta.url).pathname;
}
