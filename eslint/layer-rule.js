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
 * A path pattern of the table as a regular expression: `<name>` is one file or folder name, the
 * same one wherever the pattern repeats it (`src/backends/<agent>/<agent>-agent.ts`).
 */
function patternOf(pattern) {
  const names = [];
  const source = pattern
    .split(/(<[a-z]+>)/)
    .map((part) => {
      if (!/^<[a-z]+>$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const seen = names.indexOf(part);
      if (seen >= 0) return `\\${seen + 1}`;
      names.push(part);
      return '([^/]+)';
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The layer a project path belongs to: the row of the table whose folder holds it or whose file
 * it is (the longest match wins). In src/ but in no row: the empty name, which no layer allows.
 * Outside src/: none.
 */
export function layerOf(path, where) {
  let found;
  let longest = -1;
  for (const layer of where) {
    for (const prefix of layer.paths) {
      const hit = prefix.includes('<') ? patternOf(prefix).test(path) : prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix;
      if (hit && prefix.length > longest) {
        found = layer.name;
        longest = prefix.length;
      }
    }
  }
  if (found !== undefined) return found;
  return path.startsWith('src/') ? '' : undefined;
}

/**
 * What an import specifier names: a project file (relative specifiers, resolved against the
 * importing file and mapped from the emitted `.js` to the `.ts` source), a Node builtin (always
 * in its `node:` spelling) or a package (its name, scope included, without the subpath).
 */
export function describeTarget(specifier, importerPath, cwd, where) {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const absolute = resolve(dirname(resolve(cwd, importerPath)), specifier);
    const path = projectPath(cwd, absolute).replace(/\.js$/, '.ts');
    return { kind: 'file', path, layer: layerOf(path, where) };
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

/** The first restriction of a layer that forbids this import, if any. A type-only import counts like any other. */
export function findViolation(restrictions, target, lazy = false) {
  for (const restriction of restrictions) {
    if (lazy && target.kind === 'file' && (restriction.lazyLayers ?? []).includes(target.layer)) continue;
    if (target.kind === 'file' && target.layer === '' && restriction.unknownLayers) return restriction;
    if (target.kind === 'file' && target.layer !== undefined && (restriction.layers ?? []).includes(target.layer)) return restriction;
    if (target.kind !== 'file' && matchesName(target.name, restriction.packages ?? [])) return restriction;
    if (target.kind === 'builtin' && restriction.builtinsExcept !== undefined && !matchesName(target.name, restriction.builtinsExcept)) return restriction;
  }
  return undefined;
}

/** How a message names a target: the project path for files, the name otherwise. */
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
          where: { type: 'array' },
        },
        required: ['layers', 'where'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: '{{importer}} ({{layer}}) must not import {{target}}: {{why}}',
      unplaced:
        '{{importer}} is in no layer: add its folder to a row of eslint/layer-table.js (and run scripts/render-layer-doc.mjs) before it imports anything.',
    },
  },
  create(context) {
    const { layers, where } = context.options[0];
    const cwd = context.cwd;
    const importer = projectPath(cwd, resolve(cwd, context.filename));
    const layer = layerOf(importer, where);
    if (layer === undefined) return {};
    if (layer === '') {
      return { Program: (node) => context.report({ node, messageId: 'unplaced', data: { importer } }) };
    }
    const restrictions = layers[layer] ?? [];

    const check = (node, sourceNode, lazy = false) => {
      const specifier = staticSpecifier(sourceNode);
      // A specifier computed at run time cannot be resolved here; such imports are rare and show in review.
      if (specifier === undefined) return;
      const target = describeTarget(specifier, importer, cwd, where);
      const restriction = findViolation(restrictions, target, lazy);
      if (restriction === undefined) return;
      context.report({ node, messageId: 'forbidden', data: { importer, layer, target: targetKey(target), why: restriction.why } });
    };

    // `import type` is erased at build, but it still ties the importer to the imported layer's
    // shape: it counts like a value import.
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source, true),
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal ?? node.argument),
      TSExternalModuleReference: (node) => check(node, node.expression),
    };
  },
};
