import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';

/**
 * Just enough JSON Schema (type, enum, const, required, properties, additionalProperties,
 * items, anyOf, minLength) to check Ralph's files against the schemas it publishes in docs/schemas.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minLength?: number;
  title?: string;
}

export function publishedSchema(name: string): JsonSchema {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'schemas', name), 'utf8')) as JsonSchema;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `integer` is a number too; a whole number fits both. */
function fits(types: string[], value: unknown): boolean {
  const type = typeOf(value);
  return types.includes(type) || (type === 'number' && types.includes('integer') && Number.isInteger(value));
}

/** The places where `value` breaks `schema`, as "path: problem" lines (none when it fits). */
export function schemaProblems(schema: JsonSchema, value: unknown, at = '$'): string[] {
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!fits(types, value)) return [`${at}: ${typeOf(value)} is not ${types.join(' or ')}`];
  }
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && value !== schema.const) problems.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (schema.minLength !== undefined && typeof value === 'string' && value.length < schema.minLength) problems.push(`${at}: shorter than ${schema.minLength}`);
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) problems.push(`${at}.${key}: missing`);
    for (const [key, sub] of Object.entries(schema.properties ?? {})) if (key in record) problems.push(...schemaProblems(sub, record[key], `${at}.${key}`));
    const extra = schema.additionalProperties;
    if (typeof extra === 'object') {
      for (const [key, item] of Object.entries(record)) if (!(key in (schema.properties ?? {}))) problems.push(...schemaProblems(extra, item, `${at}.${key}`));
    }
  }
  if (schema.items && Array.isArray(value))
    value.forEach((item, index) => problems.push(...schemaProblems(schema.items as JsonSchema, item, `${at}[${index}]`)));
  if (schema.anyOf) {
    // The branch that fits, or the closest one's problems (a discriminated union names its variant by `title`).
    const tried = schema.anyOf.map((branch) => ({ branch, problems: schemaProblems(branch, value, at) }));
    if (!tried.some((t) => t.problems.length === 0)) {
      const closest = tried.reduce((a, b) => (b.problems.length < a.problems.length ? b : a));
      problems.push(`${at}: fits none of anyOf; closest${closest.branch.title ? ` (${closest.branch.title})` : ''}: ${closest.problems.join('; ')}`);
    }
  }
  return problems;
}

/** The field names of a JSON Schema object, nested ones as `a.b`. */
export function jsonSchemaFields(schema: JsonSchema, prefix = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, sub]) => [`${prefix}${key}`, ...jsonSchemaFields(sub, `${prefix}${key}.`)]);
}

/** The object schema inside fallbacks, nullables and pipes, if there is one. */
function objectIn(schema: v.GenericSchema): v.ObjectSchema<v.ObjectEntries, undefined> | undefined {
  const s = schema as unknown as { type: string; wrapped?: v.GenericSchema; pipe?: v.GenericSchema[]; entries?: v.ObjectEntries };
  if (s.type === 'object') return schema as unknown as v.ObjectSchema<v.ObjectEntries, undefined>;
  if (s.wrapped) return objectIn(s.wrapped);
  for (const item of s.pipe ?? []) {
    if (item === schema) continue;
    const found = item.kind === 'schema' ? objectIn(item) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The field names a valibot schema reads, nested ones as `a.b`. */
export function valibotFields(schema: v.GenericSchema, prefix = ''): string[] {
  const object = objectIn(schema);
  if (!object) return [];
  return Object.entries(object.entries).flatMap(([key, sub]) => [`${prefix}${key}`, ...valibotFields(sub as v.GenericSchema, `${prefix}${key}.`)]);
}
