// The JSON Schema of one `ralph --events` line (docs/schemas/loop-event.schema.json), made from
// the LoopEvent union of src/engine/loop-events.ts by the TypeScript compiler: the union is the
// one description of the events, so the published schema cannot drift from it.
// scripts/render-loop-event-schema.mjs writes the file; tests/unit/loop-event-schema.test.ts
// fails when it is not current.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'src', 'engine', 'loop-events.ts');
export const SCHEMA_PATH = join(ROOT, 'docs', 'schemas', 'loop-event.schema.json');

/** The LoopEvent union as the compiler sees it. */
function loopEventType() {
  const program = ts.createProgram([SOURCE], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    exactOptionalPropertyTypes: false,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(SOURCE);
  const alias = file?.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === 'LoopEvent');
  if (!alias) throw new Error(`no LoopEvent in ${SOURCE}`);
  return { checker, type: checker.getTypeAtLocation(alias.name) };
}

const describe = (checker, symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();

/** `type` as JSON Schema: primitives, literal sets as enums, arrays, objects with their required fields. */
function schemaOf(checker, type, stack) {
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (f & ts.TypeFlags.Null) return { type: 'null' };
  if (f & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [type.value] };
  if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [type.value] };
  if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', enum: [type.intrinsicName === 'true'] };
  if (f & ts.TypeFlags.String || f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
  if (f & ts.TypeFlags.Number) return { type: 'number' };
  if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
  if (type.isUnion()) return unionSchema(checker, type.types, stack);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type);
    return { type: 'array', items: items.length === 1 ? schemaOf(checker, items[0], stack) : {} };
  }
  if (f & ts.TypeFlags.Object || type.isIntersection()) return objectSchema(checker, type, stack);
  return {};
}

/** A union: its literals as one enum per JSON type, `undefined` left to `required`, the rest as anyOf. */
function unionSchema(checker, members, stack) {
  const parts = members.filter((m) => !(m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))).map((m) => schemaOf(checker, m, stack));
  const merged = [];
  for (const part of parts) {
    const keys = Object.keys(part);
    const same = merged.find((m) => m.enum && part.enum && m.type === part.type);
    if (same) same.enum = [...new Set([...same.enum, ...part.enum])];
    else if (keys.length === 1 && keys[0] === 'type' && merged.some((m) => Object.keys(m).length === 1 && m.type === part.type)) continue;
    else merged.push({ ...part });
  }
  for (const m of merged) if (m.type === 'boolean' && m.enum?.length === 2) delete m.enum;
  if (merged.some((m) => Object.keys(m).length === 0)) return {};
  if (merged.length === 1) return merged[0];
  if (merged.every((m) => Object.keys(m).length === 1)) return { type: merged.map((m) => m.type) };
  return { anyOf: merged };
}

function objectSchema(checker, type, stack) {
  if (stack.includes(type)) return { type: 'object' };
  const inner = [...stack, type];
  const properties = {};
  const required = [];
  for (const symbol of checker.getPropertiesOfType(type)) {
    const propType = checker.getTypeOfSymbol(symbol);
    // Events are data: a method is no field of a line.
    if (propType.getCallSignatures().length > 0) continue;
    const schema = schemaOf(checker, propType, inner);
    const description = describe(checker, symbol);
    properties[symbol.name] = description ? { ...schema, description } : schema;
    // A field that may be undefined is left out of the JSON line: not required either.
    const mayBeUndefined = propType.isUnion() && propType.types.some((t) => t.flags & ts.TypeFlags.Undefined);
    if (!(symbol.flags & ts.SymbolFlags.Optional) && !mayBeUndefined) required.push(symbol.name);
  }
  const schema = { type: 'object' };
  if (required.length > 0) schema.required = required;
  if (Object.keys(properties).length > 0) schema.properties = properties;
  const index = checker.getIndexInfosOfType(type)[0];
  if (index) schema.additionalProperties = schemaOf(checker, index.type, inner);
  return schema;
}

/** The name of a variant: its `type`, and a notice's `code`. */
function variantName(variant) {
  const code = variant.properties.code?.enum?.[0];
  return code === undefined ? variant.properties.type.enum[0] : `${variant.properties.type.enum[0]} ${code}`;
}

export function loopEventSchema() {
  const { checker, type } = loopEventType();
  const variants = type.types.map((member) => objectSchema(checker, member, []));
  const types = [...new Set(variants.map((v) => v.properties.type.enum[0]))];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'One line of ralph --events (a LoopEvent)',
    description:
      "Each line is one event of a loop as it happens, the LoopEvent that import { runLoop } from 'ralph-ts' hands to onEvent, secret values redacted. Generated from src/engine/loop-events.ts by scripts/render-loop-event-schema.mjs. Readers must ignore event types and fields they do not know.",
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: types, description: 'What happened; a notice says which in `code`.' } },
    anyOf: variants.map((variant) => ({ title: variantName(variant), ...variant })),
  };
}

/** The file's text, formatted as `prettier --check .` wants it. */
export async function renderLoopEventSchema() {
  const options = (await prettier.resolveConfig(SCHEMA_PATH)) ?? {};
  return prettier.format(JSON.stringify(loopEventSchema()), { ...options, filepath: SCHEMA_PATH });
}
