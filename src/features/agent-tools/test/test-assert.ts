import { readFileSync, statSync } from 'node:fs';
import { evaluateAssertions, type Assertion, type AssertionFacts, type AssertionReport, type FileRead } from './assertions.js';
import { resolveInside } from './path-safety.js';
import { ToolError } from './tool-error.js';
import type { ToolContext } from './tool-home.js';
import { loadEventRecords } from './event-log-records.js';
import { requireWorkspace, sessionFile, touchWorkspace } from './workspace.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

/**
 * test_assert: gathers the facts — the workspace's last run,
 * its session recording, its files — and evaluates every assertion. Paths are
 * checked before anything is evaluated: a path that leaves the workspace is a
 * refused request, not a failed assertion.
 */

export interface AssertInput {
  workspace_id: string;
  assertions: Assertion[];
}

const SCRATCHPAD = PROJECT_FILES.fixPlan;
/** Files larger than this are not searched (a pattern over gigabytes is a mistake). */
const MAX_ASSERT_FILE_BYTES = 16 * 1024 * 1024;

const EVENT_TYPES = new Set(['event_occurred', 'event_sequence', 'event_count', 'no_event']);

function fileReader(root: string): (path: string) => FileRead {
  return (path) => {
    const target = resolveInside(root, path, 'path');
    try {
      const stat = statSync(target);
      if (stat.isDirectory()) return { kind: 'unreadable', reason: 'it is a directory' };
      if (stat.size > MAX_ASSERT_FILE_BYTES) return { kind: 'unreadable', reason: `it is larger than ${MAX_ASSERT_FILE_BYTES} bytes` };
      return { kind: 'file', text: readFileSync(target, 'utf8') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'unreadable', reason: code ?? String(error) };
    }
  };
}

function sessionFacts(input: AssertInput, workspace: string): AssertionFacts['session'] {
  if (!input.assertions.some((a) => EVENT_TYPES.has(a.type))) return { records: [] };
  try {
    return { records: loadEventRecords(input.workspace_id, workspace, sessionFile(workspace)) };
  } catch (error) {
    // No recording yet fails the event assertions; a damaged one fails the call (with its line).
    if (error instanceof ToolError && error.code === 'no_session') return { unavailable: 'no session recording yet; call test_run first' };
    throw error;
  }
}

export async function testAssert(input: AssertInput, ctx: ToolContext): Promise<AssertionReport> {
  const { entry } = requireWorkspace(ctx, input.workspace_id);
  for (const a of input.assertions) {
    if (a.type === 'file_exists' || a.type === 'file_contains' || a.type === 'file_not_contains') resolveInside(entry.path, a.path, `${a.type}.path`);
  }
  const facts: AssertionFacts = {
    run: entry.last_run ?? undefined,
    session: sessionFacts(input, entry.path),
    readFile: fileReader(entry.path),
    scratchpadPath: SCRATCHPAD,
  };
  const report = evaluateAssertions(input.assertions, facts);
  await touchWorkspace(ctx, input.workspace_id);
  return report;
}
