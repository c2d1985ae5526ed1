import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script of the build, without declarations.
import { SCHEMA_PATH, renderLoopEventSchema } from '../../scripts/loop-event-schema.mjs';
import type { LoopEvent } from '../../src/engine/loop-events.js';
import { publishedSchema, schemaProblems } from '../helpers/json-schema.js';

/**
 * Every `type` of the LoopEvent union, as the compiler checks it: a type added to the union and
 * not here fails the typecheck, one here and not in the union too.
 */
const EVENT_TYPES: Record<LoopEvent['type'], true> = {
  'loop.start': true,
  'iteration.start': true,
  'call.start': true,
  'call.running': true,
  'call.progress': true,
  'call.tick': true,
  'call.end': true,
  'agent.result': true,
  analysis: true,
  'verify.result': true,
  'verify.escalated': true,
  'checkpoint.created': true,
  'checkpoint.dropped': true,
  'checkpoint.restored': true,
  'circuit.transition': true,
  'circuit.halt': true,
  'wait.start': true,
  'wait.tick': true,
  'wait.end': true,
  'limit.usage': true,
  'api_retry.gave_up': true,
  'sandbox.refused': true,
  'iteration.end': true,
  'iteration.decided': true,
  'review.start': true,
  'review.end': true,
  status: true,
  notice: true,
  'loop.stop': true,
  'loop.exit': true,
  'loop.crash': true,
};

const schema = publishedSchema('loop-event.schema.json');

describe('docs/schemas/loop-event.schema.json', () => {
  it('is the one scripts/render-loop-event-schema.mjs makes from the LoopEvent union (run it after changing the events)', async () => {
    expect(readFileSync(SCHEMA_PATH as string, 'utf8')).toBe(await (renderLoopEventSchema as () => Promise<string>)());
  }, 60_000);

  it('names every event type of the union, and no other', () => {
    expect([...(schema.properties?.['type']?.enum ?? [])].sort()).toEqual(Object.keys(EVENT_TYPES).sort());
    const variants = new Set(schema.anyOf?.map((variant) => variant.properties?.['type']?.enum?.[0]));
    expect([...variants].sort()).toEqual(Object.keys(EVENT_TYPES).sort());
  });

  it('takes well-formed events and names what is wrong with a broken one', () => {
    const events: LoopEvent[] = [
      { type: 'iteration.start', iteration: 1 },
      { type: 'notice', code: 'api_retry.waiting', cause: 'overloaded', status: undefined, attempt: 1, maxAttempts: 3, delayMs: 10, message: 'busy' },
      { type: 'loop.stop', reason: 'interrupted', detail: 'interrupted', signal: 'SIGINT' },
    ];
    for (const event of events) expect(schemaProblems(schema, JSON.parse(JSON.stringify(event)))).toEqual([]);
    expect(schemaProblems(schema, { type: 'iteration.start' }).join('\n')).toContain('$.iteration: missing');
    expect(schemaProblems(schema, { type: 'loop.stop', reason: 'bored', detail: '', signal: '' }).join('\n')).toContain('"bored" is not one of');
    expect(schemaProblems(schema, { type: 'nothing.happened' }).join('\n')).toContain('is not one of');
  });
});
