import { resolve } from 'node:path';
import * as z from 'zod';
import { buildStatusJson } from '../../../state/status-snapshot.js';
import { ralphPaths } from '../../../state/paths.js';
import type { ToolContext } from '../test/tool-home.js';
import { requireWorkspace } from '../test/workspace.js';
import { requireDirectory } from './require-directory.js';
import { WORKSPACE_ID_PATTERN } from '../test/workspace.js';

/**
 * `ralph_status`: the snapshot of a project's loop, the same document as
 * `ralph --status --json` (status.json plus `running`). The project is the
 * server's directory, `project_dir`, or a test workspace by `workspace_id`.
 */
export const statusSchema = z
  .strictObject({
    project_dir: z.string().min(1).optional().describe("Project directory (relative to the server's directory; default: that directory)"),
    workspace_id: z.string().regex(WORKSPACE_ID_PATTERN, 'must be a test workspace id').optional().describe('A test workspace instead of a project directory'),
  })
  .refine((v) => v.project_dir === undefined || v.workspace_id === undefined, { message: 'give project_dir or workspace_id, not both' });

export type StatusInput = z.infer<typeof statusSchema>;

export function runStatusTool(input: StatusInput, ctx: ToolContext): Record<string, unknown> {
  let dir: string;
  if (input.workspace_id !== undefined) dir = requireWorkspace(ctx, input.workspace_id).entry.path;
  else {
    dir = resolve(ctx.cwd, input.project_dir ?? '.');
    requireDirectory(dir, 'project_dir');
  }
  return { project: dir, ...buildStatusJson(ralphPaths(dir)) };
}
