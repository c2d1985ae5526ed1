import { readSessionRecords, type SessionRecord } from '../session-inspect.js';
import { ToolError } from './tool-error.js';

/**
 * The records of a workspace's session.jsonl for test_inspect and the event
 * assertions. A damaged file is an error naming the first bad line (seed 003
 * "Session file corrupted"), not a silently shorter list.
 */
export function loadSessionRecords(workspaceId: string, path: string): SessionRecord[] {
  const read = readSessionRecords(path);
  if (!read.error) return read.records;
  if (read.error.line === 0) {
    throw new ToolError('no_session', `workspace ${workspaceId} has no session recording yet (${read.error.message})`, { session_file: path }, 'Call test_run first.');
  }
  throw new ToolError(
    'session_corrupt',
    `the session recording is damaged at line ${read.error.line}: ${read.error.message}`,
    { session_file: path, line: read.error.line, valid_records: read.records.length },
    'Inspect the file by hand, or run test_run again to record a fresh session.',
  );
}
