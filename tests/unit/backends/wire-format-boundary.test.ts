import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What an agent CLI prints is its backend's business: only src/backends/<name>/ reads it. The
 * rest of Ralph sees neutral results and progress, so a new backend never has to imitate Claude.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Field and event names of Claude's output and the flags that shape it. */
const CLAUDE_WIRE =
  /total_cost_usd|\bpermission_denials\b|"is_error"|\['is_error'\]|api_error_status|rate_limit_event|stream_event|content_block_|tool_use_id|--output-format|--append-system-prompt|--allowedTools|--resume\b/;
/** The stream format's name is a config value in src/config and src/cli, nowhere else outside the backends. */
const STREAM_FORMAT = /stream-json/;

const layers = ['core', 'engine', 'state', 'infra', 'ui', 'features'];

describe('Claude wire format stays in src/backends', () => {
  it('the rules recognise what they forbid', () => {
    for (const text of ["value['total_cost_usd']", "e['is_error']", 'permission_denials: []', "'--append-system-prompt'", "type: 'rate_limit_event'"])
      expect(text).toMatch(CLAUDE_WIRE);
    for (const own of ['consecutive_permission_denials: 0', 'has_permission_denials: true']) expect(own).not.toMatch(CLAUDE_WIRE);
    expect('is_error: o.reportedError').not.toMatch(CLAUDE_WIRE);
  });

  it.each(layers)('src/%s names none of it', (layer) => {
    const offenders = sourceFiles(join(ROOT, 'src', layer))
      .map((path): [string, string] => [relative(ROOT, path), readFileSync(path, 'utf8')])
      .filter(([, text]) => CLAUDE_WIRE.test(text) || STREAM_FORMAT.test(text))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });
});
