import { describeCost } from '../core/cost-display.js';
import type { StatusDocument } from '../core/status-model.js';
import { nearCallLimit } from '../core/call-limit.js';
import { clockTime, parseIso, formatDuration } from '../core/time-format.js';
import type { PendingStop } from '../state/stop-request.js';
import { runTokens } from '../core/token-budget.js';
import { quotaWindowLines } from './quota-window-lines.js';

/** `ralph --status` for humans: the status.json document, readable. Pure. */
export function renderStatusText(doc: StatusDocument, processAlive: boolean, nowMs: number, pendingStop?: PendingStop): string {
  const lines: string[] = ['Current Status:'];
  const add = (label: string, value: string): void => {
    lines.push(`  ${label.padEnd(16)} ${value}`);
  };
  const running = doc.status === 'running' || doc.status === 'waiting' || doc.status === 'paused';
  const state = running && !processAlive && doc.pid !== null ? `${doc.status} (stale: process ${doc.pid} is not running)` : doc.status;
  add('Status', state);
  // The loop acts on a stop between steps: until then it still says "running".
  if (pendingStop && running && processAlive) add('Stop', describePendingStop(pendingStop, nowMs));
  add('Last action', doc.last_action || '—');
  if (doc.message) add('Message', doc.message);
  add('Loop', `#${doc.loop_count}`);
  if (doc.backend) add('Agent', doc.backend);
  const nextSlot = nearCallLimit(doc.calls_made_this_hour, doc.max_calls_per_hour) && doc.next_reset ? ` (next slot ${doc.next_reset})` : '';
  add('API calls', `${doc.calls_made_this_hour}/${doc.max_calls_per_hour} this hour${nextSlot}`);
  const tokenLimit = doc.max_tokens_per_hour > 0 ? `/${doc.max_tokens_per_hour}` : '';
  add('Tokens', `${doc.tokens_used_this_hour}${tokenLimit} this hour; run total ${doc.totals.input_tokens} in / ${doc.totals.output_tokens} out`);
  add(
    'Cost',
    `${describeCost({ usd: doc.totals.cost_usd, estimated: doc.totals.cost_estimated, unknownCalls: doc.totals.cost_unknown_calls })} this run${doc.limits.max_cost_usd > 0 ? ` (limit $${doc.limits.max_cost_usd})` : ''}`,
  );
  if (doc.circuit) add('Circuit', `${doc.circuit.state}${doc.circuit.reason ? ` — ${doc.circuit.reason}` : ''}`);
  if (doc.verify) {
    const last = doc.verify.last;
    const result = last ? (last.passed ? 'passed' : last.timed_out ? 'timed out' : `failed (exit ${last.exit_code ?? '?'})`) : 'not run yet';
    add('Verify', `${doc.verify.command} — ${doc.verify.state}, attempt ${doc.verify.attempt}/${doc.verify.max_attempts}, last ${result}`);
  }
  if (doc.waiting) {
    const until = parseIso(doc.waiting.until);
    const left = until !== undefined ? ` (${formatDuration((until - nowMs) / 1000)} left)` : '';
    add('Waiting', `${doc.waiting.reason}: ${doc.waiting.message}${left}`);
  }
  for (const line of quotaWindowLines(doc.quota_windows, nowMs)) add('Window', line);
  if (doc.max_tokens > 0) add('Token limit', `${runTokens(doc.totals)}/${doc.max_tokens} this run (cache reads and writes included)`);
  if (doc.last_iteration) {
    const it = doc.last_iteration;
    add(
      'Last iteration',
      `#${it.loop} ${it.outcome}, ${formatDuration(it.duration_ms / 1000)}, ${it.files_changed} file(s) changed${it.summary ? ` — ${it.summary}` : ''}`,
    );
  }
  if (doc.session_id) add('Session', doc.session_id);
  if (doc.exit_reason) add('Exit reason', `${doc.exit_reason}${doc.exit_code !== null ? ` (exit code ${doc.exit_code})` : ''}`);
  if (doc.pid !== null) add('PID', `${doc.pid}${processAlive ? '' : ' (not running)'}`);
  add('Updated', doc.timestamp || '—');
  return lines.join('\n');
}

/** "requested at 10:20:45 (2m 5s ago); the loop stops before its next step". */
export function describePendingStop(stop: PendingStop, nowMs: number): string {
  const at = parseIso(stop.requestedAt);
  const when = at !== undefined ? ` at ${clockTime(at)} (${formatDuration(Math.max(0, nowMs - at) / 1000)} ago)` : '';
  return `requested${when}; the loop stops before its next step`;
}
