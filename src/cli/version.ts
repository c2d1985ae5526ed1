import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read from package.json next to dist/. */
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
