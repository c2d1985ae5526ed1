import {
  inspectEventLog,
  type InspectFormat,
  type InspectJson,
  type InspectSummary,
  type InspectTimeline,
  type EventFilter,
} from '../../observe/event-log-inspect.js';
import { readRegistry } from './registry.js';
import { loadEventRecords } from './event-log-records.js';
import { badInput, ToolError } from './tool-error.js';
import { toolPaths, type ToolContext } from './tool-home.js';
import { requireWorkspace, sessionFile } from './workspace.js';

/**
 * test_inspect over session-inspect.ts: filters, limit and the
 * json / summary / timeline shapes. Also reads a session kept by
 * `test_cleanup` with `preserve_session`, so a failed test can be debugged
 * after its workspace is gone.
 */

export interface InspectInput {
  workspace_id: string;
  filter?: EventFilter | undefined;
  limit?: number | undefined;
  format?: InspectFormat | undefined;
}

/** The workspace folder whose recording is read: a registered one, or one kept by test_cleanup. */
function workspaceFor(input: InspectInput, ctx: ToolContext): string {
  try {
    return requireWorkspace(ctx, input.workspace_id).entry.path;
  } catch (error) {
    const preserved = readRegistry(toolPaths(ctx.env), ctx.warn).preserved[input.workspace_id];
    if (error instanceof ToolError && error.code === 'unknown_workspace' && preserved) return preserved.path;
    throw error;
  }
}

export function testInspect(input: InspectInput, ctx: ToolContext): InspectJson | InspectSummary | InspectTimeline {
  const workspace = workspaceFor(input, ctx);
  const records = loadEventRecords(input.workspace_id, workspace, sessionFile(workspace));
  const options = {
    ...(input.filter ? { filter: input.filter } : {}),
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
    ...(input.format ? { format: input.format } : {}),
  };
  const result = inspectEventLog(records, options);
  if (!result.ok) throw badInput(result.error);
  return result.value;
}
