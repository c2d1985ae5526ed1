import type { CircuitDocument, ProgressDocument } from '../../ui/render-monitor.js';

/**
 * Readers for the loop's live files (progress.json, .circuit_breaker_state,
 * .claude_session_id). The loop writes them while the monitor reads, and
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

const CIRCUIT_STATES = ['CLOSED', 'HALF_OPEN', 'OPEN'];

export function normalizeCircuit(value: unknown): CircuitDocument | string {
  if (!isRec(value)) return '.circuit_breaker_state does not contain a JSON object';
  const state = str(value['state']).toUpperCase();
  if (!CIRCUIT_STATES.includes(state)) return `unknown circuit state ${JSON.stringify(value['state'] ?? null)}`;
  return {
    state,
    last_change: str(value['last_change']),
    consecutive_no_progress: int(value['consecutive_no_progress']),
    consecutive_same_error: int(value['consecutive_same_error']),
    consecutive_permission_denials: int(value['consecutive_permission_denials']),
    consecutive_failures: int(value['consecutive_failures']),
    last_progress_loop: int(value['last_progress_loop']),
    total_opens: int(value['total_opens']),
    current_loop: int(value['current_loop']),
    reason: str(value['reason']),
    opened_at: strOrNull(value['opened_at']),
  };
}

const LEGACY_SESSION_ID = /^\s*([A-Za-z0-9_-]+)\s*$/;

/**
 * .claude_session_id: canonical `{"session_id": …}`, or the original's legacy
 * plain-text form (first line is the id). Anything else means "no session".
 */
export function parseSessionIdFile(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return isRec(parsed) ? strOrNull(parsed['session_id']) : null;
    } catch {
      return null;
    }
  }
  const first = trimmed.split('\n', 1)[0] ?? '';
  return LEGACY_SESSION_ID.exec(first)?.[1] ?? null;
}
