import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What the Codex CLI prints and accepts is src/backends/codex/'s business alone.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const CODEX_WIRE =
  /thread\.started|turn\.completed|turn\.failed|item\.completed|agent_message|command_execution|cached_input_tokens|developer_instructions|--dangerously-bypass-approvals-and-sandbox/;

describe('Codex wire format stays in src/backends/codex', () => {
  it('the rule recognises what it forbids', () => {
    for (const text of ["type === 'turn.completed'", "item['type'] === 'agent_message'", "'-c', 'developer_instructions=…'"]) expect(text).toMatch(CODEX_WIRE);
    expect('session_started').not.toMatch(CODEX_WIRE);
  });

  it('no other part of src names it', () => {
    const offenders = sourceFiles(join(ROOT, 'src'))
      .filter((path) => !path.includes(`${join('src', 'backends', 'codex')}`))
      .filter((path) => CODEX_WIRE.test(readFileSync(path, 'utf8')))
      .map((path) => relative(ROOT, path));
    expect(offenders).toEqual([]);
  });
});
