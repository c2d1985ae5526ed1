import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildReceipt } from '../../../../src/core/receipt.js';
import { receiptSchema } from '../../../../src/state/documents/receipt.js';
import { jsonSchemaFields, publishedSchema, schemaProblems, valibotFields } from '../../../helpers/json-schema.js';

const receipt = buildReceipt({
  runId: 'run-1',
  loop: 1,
  iteration: 1,
  backend: 'claude',
  model: 'opus',
  startedAt: 0,
  endedAt: 1,
  outcome: 'success',
  result: 'success',
  success: true,
  toolUses: 1,
  permissionDenials: [{ tool: 'Bash', detail: 'rm -rf /' }],
  filesChanged: 1,
  changedFiles: ['a'],
  verify: { command: 'npm test', passed: true, exit_code: 0, timed_out: false, duration_ms: 5, attempt: 1, max_attempts: 3, decision: 'passed' },
  checkpointId: 'c1',
  checkpointOutcome: 'dropped',
  review: {
    verdict: 'APPROVED',
    findings_count: 0,
    backend: 'codex',
    tokens: { input: 900, output: 40, cache_read: 300, cache_write: 0 },
    cost: { usd: 0.02, source: 'estimated' },
    turns: 1,
  },
  rateLimit: { window: 'five_hour', status: 'allowed', resets_at: null, used_percent: 12 },
  callsThisHour: 1,
  retry: { reason: 'api_retry', attempt: 2 },
  exit: { decision: 'stop', reason: 'project_complete', detail: 'done' },
});

describe('docs/schemas/receipt.schema.json', () => {
  const published = publishedSchema('receipt.schema.json');

  it('names exactly the fields Ralph reads, nested ones included', () => {
    expect(jsonSchemaFields(published).sort()).toEqual(valibotFields(receiptSchema).sort());
  });

  it('accepts a receipt with every part filled, as Ralph reads it', () => {
    expect(schemaProblems(published, receipt)).toEqual([]);
    expect(v.parse(receiptSchema, receipt)).toEqual(receipt);
  });

  it.each([
    [{ ...receipt, loop: 1.5 }, '$.loop: number is not integer'],
    [{ ...receipt, cost: { usd: 1, source: 'guessed' } }, '$.cost.source: "guessed" is not one of ["reported","estimated","unknown","none"]'],
    [{ ...receipt, changed_files: [3] }, '$.changed_files[0]: number is not string'],
    [{ ...receipt, exit: { decision: 'maybe', reason: null, detail: null } }, '$.exit.decision: "maybe" is not one of ["continue","wait","stop"]'],
  ])('rejects what the reader rejects (%#)', (bad, problem) => {
    expect(schemaProblems(published, bad)).toEqual([problem]);
    expect(v.safeParse(receiptSchema, bad).success).toBe(false);
  });
});
