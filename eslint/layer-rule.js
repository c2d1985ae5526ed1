// The `ralph/layers` lint rule: which folder of src/ may load which other folder or package.
//
// Written here rather than taken from a plugin because the answer depends on where an import
// lands, not on how it is spelled: `../../cli/x.js` from src/features/mcp/ and `../cli/x.js`
// from src/features/ are the same layer, and only resolving the path tells them apart.
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

const BUILTINS = new Set(builtinModules);

/** Project-relative path with forward slashes, whatever the platform. */
function projectPath(cwd, absolute) {
  return relative(cwd, absolute).split(sep).join('/');
}

/**
 * The layer a project path belongs to: the folder right under src/ (`src/engine/x.ts` → engine),
 * or the file's own name for the loose files (`src/ports.ts` → ports). Outside src/: none.
 */
export function layerOf(path) {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1].replace(/\.[cm]?[jt]s$/, '') : parts[1];
}

/**
 * What an import specifier names: a project file (relative specifiers, resolved against the
 * importing file and mapped from the emitted `.js` to the `.ts` source), a Node builtin (always
 * in its `node:` spelling) or a package (its name, scope included, without the subpath).
 */
export function describeTarget(specifier, importerPath, cwd) {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const absolute = resolve(dirname(resolve(cwd, importerPath)), specifier);
    const path = projectPath(cwd, absolute).replace(/\.js$/, '.ts');
    return { kind: 'file', path, layer: layerOf(path) };
  }
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (specifier.startsWith('node:') || BUILTINS.has(bare) || BUILTINS.has(bare.split('/')[0])) {
    return { kind: 'builtin', name: `node:${bare}` };
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return { kind: 'package', name };
}

/** Whether a package or builtin name is one of `names` or a subpath of one (`node:fs` covers `node:fs/promises`). */
function matchesName(name, names) {
  return names.some((entry) => name === entry || name.startsWith(`${entry}/`));
}

/** The first restriction of a layer that forbids this import, if any. */
export function findViolation(restrictions, target, typeOnly) {
  for (const restriction of restrictions) {
    if (typeOnly && restriction.typeImportsAllowed) continue;
    if (target.kind === 'file' && target.layer !== undefined && (restriction.layers ?? []).includes(target.layer)) return restriction;
    if (target.kind !== 'file' && matchesName(target.name, restriction.packages ?? [])) return restriction;
    if (target.kind === 'builtin' && restriction.builtinsExcept !== undefined && !matchesName(target.name, restriction.builtinsExcept)) return restriction;
  }
  return undefined;
}

/** The name an exception uses for a target: the project path for files, the name otherwise. */
function targetKey(target) {
  return target.kind === 'file' ? target.path : target.name;
}

/** The text of a specifier written as a string or a template without placeholders. */
function staticSpecifier(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layerRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep each folder of src/ to the imports its layer allows' },
    schema: [
      {
        type: 'object',
        properties: {
          layers: { type: 'object' },
          exceptions: { type: 'array' },
        },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: '{{importer}} ({{layer}}) must not import {{target}}: {{why}}',
      staleException:
        'The lint exception letting {{importer}} import {{target}} is no longer used: delete it from eslint/layers.js so the rule holds here too.',
    },
  },
  create(context) {
    const { layers, exceptions = [] } = context.options[0];
    const cwd = context.cwd;
    const importer = projectPath(cwd, resolve(cwd, context.filename));
    const layer = layerOf(importer);
    const restrictions = layer === undefined ? [] : (layers[layer] ?? []);
    if (restrictions.length === 0) return {};
    const ownExceptions = exceptions.filter((entry) => entry.file === importer);
    const usedExceptions = new Set();

    const check = (node, sourceNode, typeOnly) => {
      const specifier = staticSpecifier(sourceNode);
      // A specifier computed at run time cannot be resolved here; such imports are rare and show in review.
      if (specifier === undefined) return;
      const target = describeTarget(specifier, importer, cwd);
      const restriction = findViolation(restrictions, target, typeOnly);
      if (restriction === undefined) return;
      const exception = ownExceptions.find((entry) => entry.imports === targetKey(target));
      if (exception !== undefined) {
        usedExceptions.add(exception);
        return;
      }
      context.report({ node, messageId: 'forbidden', data: { importer, layer, target: targetKey(target), why: restriction.why } });
    };

    return {
      // `import { type A } from` still loads the module at run time under verbatimModuleSyntax,
      // so only `import type` counts as a type-only import.
      ImportDeclaration: (node) => check(node, node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument, true),
      TSExternalModuleReference: (node) => check(node, node.expression, false),
      'Program:exit': (node) => {
        for (const exception of ownExceptions) {
          if (!usedExceptions.has(exception)) context.report({ node, messageId: 'staleException', data: { importer, target: exception.imports } });
        }
      },
    };
  },
};
