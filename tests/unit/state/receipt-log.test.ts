import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReceipt, type Receipt } from '../../../src/core/receipt.js';
import { appendReceipt, parseReceipts, readReceipts } from '../../../src/state/receipt-log.js';
import { addSecretValues } from '../../../src/state/redaction.js';
import { tempDir } from '../../helpers/temp-dir.js';

function receipt(loop: number, result = 'success'): Receipt {
  return buildReceipt({
    runId: 'run-1',
    loop,
    iteration: loop,
    backend: 'mock',
    model: null,
    startedAt: 0,
    endedAt: 10,
    outcome: 'success',
    result,
    success: true,
    toolUses: 0,
    permissionDenials: [],
    filesChanged: 0,
    changedFiles: [],
    exit: { decision: 'continue' },
  });
}

function logsDir(): string {
  const dir = join(tempDir(), 'logs');
  mkdirSync(dir);
  return dir;
}

describe('the receipts file', () => {
  it('holds one line per receipt, read back as written', () => {
    const path = join(logsDir(), 'receipts.jsonl');
    appendReceipt(path, receipt(1));
    appendReceipt(path, receipt(2));
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
    expect(readReceipts(path)).toEqual({ receipts: [receipt(1), receipt(2)], notes: [] });
  });

  it('a missing file has no receipts', () => {
    expect(readReceipts(join(logsDir(), 'receipts.jsonl'))).toEqual({ receipts: [], notes: [] });
  });

  it('skips a torn last line with a note, and the next receipt does not join it', () => {
    const path = join(logsDir(), 'receipts.jsonl');
    appendReceipt(path, receipt(1));
    appendFileSync(path, JSON.stringify(receipt(2)).slice(0, 40));
    expect(readReceipts(path).notes).toEqual(['line 2: cut short (the loop was stopped while writing it); skipped']);
    expect(readReceipts(path).receipts).toEqual([receipt(1)]);
    appendReceipt(path, receipt(3));
    const read = readReceipts(path);
    expect(read.receipts.map((r) => r.loop)).toEqual([1, 3]);
    expect(read.notes).toEqual(['line 2: not JSON; skipped']);
  });

  it.each([
    ['{"version":1}', 'line 1: "run_id" is missing; skipped'],
    [JSON.stringify({ ...receipt(1), loop: -1 }), 'line 1: "loop" is -1, expected >=0; skipped'],
    [
      JSON.stringify({ ...receipt(1), cost: { usd: 1, source: 'guessed' } }),
      'line 1: "cost.source" is "guessed", expected ("reported" | "estimated" | "unknown" | "none"); skipped',
    ],
    ['[1,2]', 'line 1: not a JSON object; skipped'],
    ['{not json', 'line 1: not JSON; skipped'],
  ])('reports a line that is no receipt (%s) and goes on', (line, note) => {
    const read = parseReceipts(`${line}\n${JSON.stringify(receipt(2))}\n`);
    expect(read.receipts.map((r) => r.loop)).toEqual([2]);
    expect(read.notes).toEqual([note]);
  });

  it('never writes through a link at the name or at the logs folder', () => {
    const root = tempDir();
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'mine\n');
    const dir = join(root, 'logs');
    mkdirSync(dir);
    symlinkSync(outside, join(dir, 'receipts.jsonl'));
    expect(() => appendReceipt(join(dir, 'receipts.jsonl'), receipt(1))).toThrow(/symbolic link/);
    const linkedDir = join(root, 'linked-logs');
    symlinkSync(root, linkedDir);
    expect(() => appendReceipt(join(linkedDir, 'receipts.jsonl'), receipt(1))).toThrow(/symbolic link, not a folder/);
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
  });

  it("redacts the user's secrets", () => {
    addSecretValues([{ name: 'RECEIPT_TEST_TOKEN', value: 'sk-receipt-secret-12345' }]);
    const path = join(logsDir(), 'receipts.jsonl');
    appendReceipt(path, receipt(1, 'printed sk-receipt-secret-12345 by mistake'));
    expect(readFileSync(path, 'utf8')).not.toContain('sk-receipt-secret-12345');
  });
});
