import { isRecord as isRec, nonEmptyString as strOrNull, nullableNumber as intOrNull, numberOr as int, stringOr as str } from '../../core/guards.js';
import type { ProgressDocument } from '../../ui/render-monitor.js';

/**
 * Reader for progress.json (the circuit state and session id use the loop's
 * own normalizers in src/core). The loop writes them while the monitor reads, and
 * older versions or other tools may have written them, so every field is
 * optional: damaged fields get neutral values, and only a value that is not
 * an object at all counts as corrupt.
 */


export function normalizeProgress(value: unknown): ProgressDocument | string {
  if (!isRec(value)) return 'progress.json does not contain a JSON object';
  return {
    status: str(value['status'], 'idle'),
    indicator: str(value['indicator']),
    elapsed_seconds: int(value['elapsed_seconds']),
    last_output: str(value['last_output']),
    timestamp: str(value['timestamp']),
    loop: intOrNull(value['loop']),
    current_tool: strOrNull(value['current_tool']),
    tool_uses: int(value['tool_uses']),
    started_at: strOrNull(value['started_at']),
  };
}
