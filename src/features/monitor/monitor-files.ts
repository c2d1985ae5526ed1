import type { ProgressDocument } from '../../ui/render-monitor.js';

/**
 * Reader for progress.json (the circuit state and session id use the loop's
 * own normalizers in src/core). The loop writes them while the monitor reads, and
 * older versions or other tools may have written them, so every field is
 * optional: damaged fields get neutral values, and only a value that is not
 * an object at all counts as corrupt.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
const int = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

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
