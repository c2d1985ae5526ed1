import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md: a module of src/ holds no state that changes after it is loaded, because
 * library use may run two loops in one process and a module global is shared by both. What a run
 * owns is passed in its context. Two exceptions say so on the line before:
 * - a cache of a result that is the same for every loop, in a comment that starts `// Cache:` (what it
 *   caches, why sharing it is safe, how it is invalidated);
 * - what belongs to the operating-system process itself, not to a loop (the run token's spawn
 *   listeners, the one sandbox runtime a process can hold, the secrets every writer redacts), in a
 *   comment that starts `// Process-wide:` saying why a second loop in the process is served right.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** Whether `init` makes a value that can be changed in place: a Map, Set or array, an object literal. */
function isCollection(init: ts.Expression | undefined): boolean {
  if (!init) return false;
  if (ts.isNewExpression(init)) return ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text);
  return ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init);
}

/** The name whose value `node` changes in place (`x.set(…)`, `x.y = …`, `x[i] = …`, `x.n++`, `delete x.y`), if any. */
function mutatedName(node: ts.Node): string | undefined {
  const base = (target: ts.Expression): string | undefined => {
    if (!ts.isPropertyAccessExpression(target) && !ts.isElementAccessExpression(target)) return undefined;
    return ts.isIdentifier(target.expression) ? target.expression.text : undefined;
  };
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MUTATORS.has(node.expression.name.text)) {
    return ts.isIdentifier(node.expression.expression) ? node.expression.expression.text : undefined;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
    return base(node.left);
  }
  if (
    (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
    [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator)
  ) {
    return base(node.operand);
  }
  if (ts.isDeleteExpression(node)) return base(node.expression);
  return undefined;
}

function isDocumentedCache(statement: ts.Statement, text: string): boolean {
  const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  return comments.some((range) => /^\/\/ (?:Cache|Process-wide): \S/.test(text.slice(range.pos, range.end)));
}

/** The module-level state of one source file that no `// Cache:` comment accounts for, as `<line>: <name>`. */
export function undocumentedModuleState(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const mutated = new Set<string>();
  const visit = (node: ts.Node): void => {
    const name = mutatedName(node);
    if (name) mutated.add(name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      const names = ts.isIdentifier(declaration.name) ? [declaration.name.text] : [declaration.name.getText(source)];
      const changing = !constant || (isCollection(declaration.initializer) && names.some((name) => mutated.has(name)));
      if (!changing || isDocumentedCache(statement, text)) continue;
      const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
      found.push(`${line}: ${names.join(', ')}`);
    }
  }
  return found;
}

describe('module-level state', () => {
  it('recognises what it forbids', () => {
    const planted = [
      'let count = 0;',
      'export let current: string | undefined;',
      'var old = 1;',
      'const seen = new Set<string>();\nexport function see(x: string) { seen.add(x); }',
      'const byName = new Map();\nexport function put(k: string) { byName.set(k, 1); }',
      'const queue: number[] = [];\nexport function push() { queue.push(1); }',
      'const state = { n: 0 };\nexport function bump() { state.n += 1; }',
      'const state = { n: 0 };\nexport function bump() { state.n++; }',
      'const table: Record<string, number> = {};\nexport function put(k: string) { table[k] = 1; }',
      '// a comment that is not one\nlet count = 0;',
      '// Cache:\nlet count = 0;',
      '/** Cache: in a doc comment */\nlet count = 0;',
    ];
    for (const text of planted) expect(undocumentedModuleState('planted.ts', text), text).toHaveLength(1);
  });

  it('lets constants, local state and documented caches be', () => {
    const allowed = [
      "const NAMES = new Set(['a', 'b']);\nexport function has(x: string) { return NAMES.has(x); }",
      'const LIMITS = { max: 3 };\nexport function max() { return LIMITS.max; }',
      'export function count() { let n = 0; const seen = new Set(); seen.add(1); n += 1; return n; }',
      "// Cache: parsed tables by path; the same for every loop; dropped when the file's mtime changes.\nconst parsed = new Map();\nexport function put(k: string) { parsed.set(k, 1); }",
      '// Cache: the resolved root; fixed for the life of the process.\nlet root: string | undefined;',
      '// Process-wide: the one runtime a process can hold.\nlet runtime: object | undefined;',
    ];
    for (const text of allowed) expect(undocumentedModuleState('allowed.ts', text), text).toEqual([]);
  });

  it('src holds none but documented caches', () => {
    const found = sourceFiles(join(ROOT, 'src')).flatMap((path) =>
      undocumentedModuleState(path, readFileSync(path, 'utf8')).map((where) => `${relative(ROOT, path)}:${where}`),
    );
    expect(found).toEqual([]);
  });
});
