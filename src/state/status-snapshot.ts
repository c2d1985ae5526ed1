import { readDocument } from './document-store.js';
import { STATUS } from './documents/status.js';
import type { RalphPaths } from './paths.js';
import { runningLoopPid } from './running-loop.js';

/**
 * The document `ralph --status --json` prints: status.json as the loop wrote
 * it plus whether a loop runs now, or a small document saying there is no
 * status yet or that the file is corrupt. Also the MCP `ralph_status` tool.
 */
export function buildStatusJson(paths: RalphPaths): Record<string, unknown> {
  const read = readDocument(paths, STATUS);
  const pid = runningLoopPid(paths);
  if (read.kind === 'missing') {
    // The lock still says whether a loop runs when status.json is gone (removed by the agent, say).
    if (pid !== undefined)
      return {
        status: 'unknown',
        running: true,
        pid,
        message: `A Ralph loop is running (PID ${pid}) but status.json is missing; the loop rewrites it on its next step.`,
      };
    return { status: 'not_started', running: false, message: 'No status file found. Ralph may not be running.' };
  }
  if (read.kind === 'corrupt') return { status: 'corrupt', running: pid !== undefined, message: `status.json is corrupt: ${read.reason}` };
  return { ...read.value, running: pid !== undefined };
}
