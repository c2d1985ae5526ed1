import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { STATUS } from '../../../../src/state/documents/status.js';
import { sessionEventSchema } from '../../../../src/state/documents/session-event.js';
import { statusSchema } from '../../../../src/state/documents/status.js';
import { jsonSchemaFields, publishedSchema, schemaProblems, valibotFields } from '../../../helpers/json-schema.js';

/**
 * docs/schemas/*.json are written by hand for the tools that read Ralph's
 * files; these tests keep them the same shape as the schemas Ralph reads with.
 * (tests/integration/published-schemas.test.ts checks files a real loop wrote.)
 */
describe('docs/schemas/status.schema.json', () => {
  const published = publishedSchema('status.schema.json');

  it('names exactly the fields Ralph reads, nested ones included', () => {
    expect(jsonSchemaFields(published).sort()).toEqual(valibotFields(statusSchema).sort());
  });

  it('accepts the document Ralph starts from', () => {
    expect(schemaProblems(published, STATUS.empty(0))).toEqual([]);
  });

  it('rejects what Ralph would repair', () => {
    expect(schemaProblems(published, { loop_count: 'five' })).toEqual(['$.loop_count: string is not number']);
    expect(schemaProblems(published, { verify: { command: '', state: 'weird', attempt: 0, max_attempts: 0, last: null } })).toEqual([
      '$.verify.state: "weird" is not one of ["idle","passing","failing","escalated","skipped","aborted"]',
    ]);
  });
});

describe('docs/schemas/session-event.schema.json', () => {
  const published = publishedSchema('session-event.schema.json');

  it('names exactly the fields Ralph reads', () => {
    expect(jsonSchemaFields(published).sort()).toEqual(valibotFields(sessionEventSchema).sort());
  });

  it.each([
    [{ ts: 1, event: 'loop.start', data: { iteration: 1 } }, true],
    [{ ts: 1, event: 'loop.exit' }, true],
    [{ ts: '1', event: 'loop.start' }, false],
    [{ ts: 1, event: '' }, false],
    [{ ts: 1, event: 'x', data: [] }, false],
    [{ event: 'x' }, false],
  ])('agrees with the reader on %j', (line, ok) => {
    expect(schemaProblems(published, line).length === 0).toBe(ok);
    expect(v.safeParse(sessionEventSchema, line).success).toBe(ok);
  });
});
