import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseEventRecords, type EventRecord } from '../../observe/event-log-inspect.js';
import { ToolError } from './tool-error.js';

/**
 * The event log of a workspace (its session.jsonl) for test_inspect and the event
 * assertions. A damaged file is an error naming the first bad line, not a
 * silently shorter list.
 *
 * The file is read only when it really lies inside the workspace: no folder
 * from the workspace down (`.ralph`, `.ralph/logs`) nor the file itself may be
 * a symlink, so a link planted there cannot make the tools read — or quote in
 * an error — a file from elsewhere. Errors never quote the file's content.
 */

type SessionText = { kind: 'text'; text: string } | { kind: 'missing'; why: string };

function readInside(workspace: string, path: string): SessionText {
  let at = workspace;
  for (const part of relative(workspace, path).split(sep)) {
    at = join(at, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', why: `session recording not found: ${path}` };
      return { kind: 'missing', why: `cannot read ${path} (${code ?? String(error)})` };
    }
    if (isLink) {
      throw new ToolError(
        'session_corrupt',
        `the session recording is refused: ${relative(workspace, at)} is a symbolic link, and the recording is only read from inside the workspace`,
        { session_file: path },
        'Remove the link, then call test_run again to record a fresh session.',
      );
    }
  }
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) return { kind: 'missing', why: `${path} is not a file` };
    return { kind: 'text', text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

export function loadEventRecords(workspaceId: string, workspace: string, path: string): EventRecord[] {
  const read = readInside(workspace, path);
  if (read.kind === 'missing') {
    throw new ToolError('no_session', `workspace ${workspaceId} has no session recording yet (${read.why})`, { session_file: path }, 'Call test_run first.');
  }
  const parsed = parseEventRecords(read.text);
  if (!parsed.error) return parsed.records;
  throw new ToolError(
    'session_corrupt',
    `the session recording is damaged at line ${parsed.error.line}: ${parsed.error.message}`,
    { session_file: path, line: parsed.error.line, valid_records: parsed.records.length },
    'Inspect the file by hand, or run test_run again to record a fresh session.',
  );
}

/** True when `path` exists below `workspace` with no symlink on the way (the file itself included). */
export function isRealFileInside(workspace: string, path: string): boolean {
  let at = workspace;
  try {
    for (const part of relative(workspace, path).split(sep)) {
      at = join(at, part);
      if (lstatSync(at).isSymbolicLink()) return false;
    }
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
