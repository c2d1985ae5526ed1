// Words a user sees come from Ralph's own vocabulary. Help texts, messages
// and output are string literals in src/; none may use words of the
// documents Ralph was designed from ("seed 003", "hat", "scratchpad", section
// marks), which the user never saw.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const FOREIGN = /\bseeds?\b|\bseed's\b|\bhats?\b|scratchpad|U§|spec §|P§/i;

/**
 * Parameter and field names of the agent-facing tools: their callers rely on
 * them, so they stay as they are. The descriptions around them must not.
 */
const CONTRACT_NAMES = new Set(['scratchpad', 'scratchpad_contains', 'hat', 'hats_used', '--scratchpad <text>']);
/** A message that names the user's own field back to them ("hat is accepted and ignored"). */
const ALLOWED = [
  /^hat is accepted and ignored: Ralph runs one agent role, so a response is used whatever hat it names$/,
  // test_setup's warning names its own `scratchpad` input back to the caller.
  /^both fixtures and scratchpad set \$\{SCRATCHPAD\}; the scratchpad wins$/,
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** String literals of a source file, comments removed first. */
export function stringLiterals(source: string): string[] {
  const out: string[] = [];
  const token = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
  for (const match of source.matchAll(token)) {
    const text = match[0];
    if (text.startsWith('//') || text.startsWith('/*')) continue;
    out.push(text.slice(1, -1));
  }
  return out;
}

describe('words a user sees', () => {
  it('finds literals and skips comments', () => {
    expect(stringLiterals(`// seed 003\nconst a = 'one'; /* hat */ const b = "two" + \`three \${x}\`;`)).toEqual(['one', 'two', 'three ${x}']);
  });

  it('no string in src/ uses the words of the design documents', () => {
    const hits: string[] = [];
    for (const file of tsFiles(SRC)) {
      for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
        if (CONTRACT_NAMES.has(literal) || ALLOWED.some((re) => re.test(literal))) continue;
        // An assertion type named inside a description is the contract too.
        if (FOREIGN.test(literal.replace(/\b(scratchpad_contains|hats_used)\b/g, ''))) hits.push(`${relative(SRC, file)}: ${literal.slice(0, 120)}`);
      }
    }
    expect(hits).toEqual([]);
  });
});
