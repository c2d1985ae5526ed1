import { resolve } from 'node:path';
import { buildRunReport, type RunFacts, type RunReport } from '../core/run-report.js';
import { readDocument } from './document-store.js';
import { STATUS } from './documents/status.js';
import { writeFileAtomic, formatJson } from './json-file.js';
import type { RalphPaths } from './paths.js';

/**
 * Writes `--report FILE` when a run ends: atomically (a CI step reading it
 * never sees half a file), from status.json as the loop left it. The file is
 * where the user named it — it is the run's output, like stdout.
 */
export function writeRunReport(paths: RalphPaths, file: string, facts: Omit<RunFacts, 'status'>): RunReport {
  const read = readDocument(paths, STATUS);
  // status.json of an earlier run says nothing about this one (a run refused before its loop began).
  const ours = read.kind === 'ok' && read.value.exit_reason !== '' && Date.parse(read.value.started_at ?? '') >= Date.parse(facts.startedIso) - 1000;
  const report = buildRunReport({ ...facts, ...(ours ? { status: read.value } : {}) });
  writeFileAtomic(resolve(paths.project, file), formatJson(report));
  return report;
}
