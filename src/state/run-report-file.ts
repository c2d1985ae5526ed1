import { resolve } from 'node:path';
import { buildRunReport, receiptsOfRun, type RunFacts, type RunReport } from '../core/run-report.js';
import { readReceipts } from './receipt-log.js';
import { readDocument } from './document-store.js';
import { STATUS } from './documents/status.js';
import { writeFileAtomic, formatJson } from './json-file.js';
import type { RalphPaths } from './paths.js';

/**
 * Writes `--report FILE` when a run ends: atomically (a CI step reading it
 * never sees half a file), from status.json as the loop left it. The file is
 * where the user named it — it is the run's output, like stdout.
 */
export function writeRunReport(paths: RalphPaths, file: string, facts: Omit<RunFacts, 'status' | 'receipts'>): RunReport {
  const read = readDocument(paths, STATUS);
  // status.json of an earlier run says nothing about this one (a run refused before its loop began).
  const ours = read.kind === 'ok' && read.value.exit_reason !== '' && Date.parse(read.value.started_at ?? '') >= Date.parse(facts.startedIso) - 1000;
  let receipts: RunFacts['receipts'];
  try {
    receipts = receiptsOfRun(readReceipts(paths.receipts).receipts, Date.parse(facts.startedIso));
  } catch {
    // Receipts that cannot be read leave the report without them; the exit code and status still tell.
  }
  const report = buildRunReport({ ...facts, ...(ours ? { status: read.value } : {}), ...(receipts ? { receipts } : {}) });
  writeFileAtomic(resolve(paths.project, file), formatJson(report));
  return report;
}
