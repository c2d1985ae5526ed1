import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusDocument } from '../../../core/status-model.js';
import { readDocument } from '../../../state/document-store.js';
import { LOOP_DOCUMENTS } from '../../../state/documents.js';
import { STATUS } from '../../../state/documents/status.js';
import { writeFileAtomic } from '../../../state/json-file.js';
import { loopScratchFiles, ralphPaths } from '../../../state/paths.js';
import { parseEventRecords, type EventRecord } from '../../observe/event-log-inspect.js';
import { removeInside } from './safe-remove.js';
import { isRealFileInside } from './event-log-records.js';

/**
 * The workspace files a test_run prepares and reads back: the task in
 * PROMPT.md, the loop state an earlier run left (reset so re-runs are
 * idempotent), and the results (status.json, session.jsonl).
 */

const TASK_START = '<!-- ralph test_run: task -->';
const TASK_END = '<!-- ralph test_run: end of task -->';

/**
 * Puts the task at the top of PROMPT.md between markers, replacing the task
 * of an earlier run; the rest of the prompt (Ralph's instructions, the
 * RALPH_STATUS block) stays. The mock backend's trigger_pattern sees it too.
 */
export function withTask(prompt: string, task: string): string {
  const start = prompt.indexOf(TASK_START);
  const end = prompt.indexOf(TASK_END);
  const rest = start !== -1 && end > start ? prompt.slice(0, start) + prompt.slice(end + TASK_END.length).replace(/^\n+/, '') : prompt;
  return `${TASK_START}\n## Task\n\n${task.trim()}\n${TASK_END}\n\n${rest}`;
}

export function writeTask(workspace: string, task: string): void {
  const path = ralphPaths(workspace).prompt;
  const prompt = existsSync(path) ? readFileSync(path, 'utf8') : '';
  writeFileAtomic(path, withTask(prompt, task));
}

/** Ralph's loop state files (not the plan, prompt, agent notes or .ralphrc). */
function loopStateFiles(workspace: string): string[] {
  const p = ralphPaths(workspace);
  return [...LOOP_DOCUMENTS.map((doc) => doc.path(p)), ...loopScratchFiles(p)];
}

function isRealDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Resets what an earlier run left so this run starts like the first one.
 * Returns a warning when there was anything: the run still goes on, and the caller says what was reset.
 * Deletes stay inside the workspace: a `.ralph` or `.ralph/logs` that is a
 * symlink is never listed or entered, so what it points at survives.
 */
export function resetLoopState(workspace: string): string | undefined {
  const p = ralphPaths(workspace);
  const earlier = isRealFileInside(p.project, p.sessionRecording) ? readSession(p.sessionRecording) : { records: [] };
  const files = loopStateFiles(workspace).filter((f) => existsSync(f));
  const logs = isRealDir(p.dir) && isRealDir(p.logsDir) ? readdirSync(p.logsDir) : [];
  if (files.length === 0 && logs.length === 0) return undefined;
  for (const f of files) removeInside(p.project, f);
  for (const name of logs) removeInside(p.project, join(p.logsDir, name));
  const exit = earlier.records.findLast((r) => r.event === 'loop.exit');
  const reason = typeof exit?.data['reason'] === 'string' ? `, exit reason ${exit.data['reason']}` : '';
  return `the workspace held the state of an earlier run (${earlier.records.length} session events${reason}); Ralph's loop state and logs were reset so this run starts fresh, and files the earlier run changed were kept`;
}

export function readSession(path: string): { records: EventRecord[]; error?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { records: [] };
  }
  const parsed = parseEventRecords(text);
  return parsed.error ? { records: parsed.records, error: parsed.error.message } : { records: parsed.records };
}

export function readStatus(workspace: string): StatusDocument | undefined {
  const read = readDocument(ralphPaths(workspace), STATUS);
  return read.kind === 'ok' ? read.value : undefined;
}
