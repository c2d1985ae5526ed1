import { describeCost, formatUsd } from '../../core/cost-display.js';
import type { Receipt } from '../../core/receipt.js';

/**
 * One iteration's receipt as a person reads it (`ralph --inspect --receipt N`): a label and a
 * value per line, in the order of the iteration (what ran, what it cost, what it did, what the
 * gate and checkpoint made of it, what came next).
 */
export function pickReceipt(receipts: readonly Receipt[], which: number | 'last'): Receipt | undefined {
  if (which === 'last') return receipts[receipts.length - 1];
  // Loop numbers start again with each new run: the latest run's loop N is meant.
  for (let i = receipts.length - 1; i >= 0; i -= 1) if (receipts[i]?.loop === which) return receipts[i];
  return undefined;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function costLine(r: Receipt): string {
  if (r.cost.usd === null) return r.cost.source === 'unknown' ? 'unknown (no price known for the model)' : 'none reported';
  return `${r.cost.source === 'estimated' ? describeCost({ usd: r.cost.usd, estimated: true, unknownCalls: 0 }) : formatUsd(r.cost.usd)} (${r.cost.source})`;
}

function verifyLine(r: Receipt): string {
  const v = r.verify;
  if (!v) return 'not run';
  const result = v.timed_out ? 'timed out' : v.passed ? 'passed' : `failed (exit ${v.exit_code ?? '?'})`;
  return `${v.command}: ${result} in ${seconds(v.duration_ms)}, attempt ${v.attempt}/${v.max_attempts} → ${v.decision}`;
}

function checkpointLine(r: Receipt): string {
  if (!r.checkpoint) return 'none';
  const what = { dropped: 'dropped (the work was kept)', rolled_back: 'rolled back to it', kept: 'kept' }[r.checkpoint.rollback];
  return `${r.checkpoint.id}: ${what}`;
}

function exitLine(r: Receipt): string {
  const e = r.exit;
  const head = e.decision === 'continue' ? 'go on with the next loop' : e.decision === 'wait' ? `wait (${e.reason ?? '?'})` : `stop: ${e.reason ?? '?'}`;
  return e.detail ? `${head} — ${e.detail}` : head;
}

export function renderReceipt(r: Receipt): string {
  const t = r.tokens;
  const rows: Array<[string, string]> = [
    ['Run', `${r.run_id}, loop ${r.loop}${r.iteration !== r.loop ? ` (iteration ${r.iteration} of this start)` : ''}`],
    ['Agent', `${r.backend}${r.model ? ` (${r.model})` : ''}${r.session_id ? `, session ${r.session_id}` : ''}`],
    ['Time', `${r.started_at} → ${r.ended_at} (${seconds(r.duration_ms)})`],
    ['Outcome', `${r.outcome}: ${r.result}${r.success ? '' : ' (not a success)'}`],
    [
      'Tokens',
      `${t.input.toLocaleString('en-US')} in, ${t.output.toLocaleString('en-US')} out, ${t.cache_read.toLocaleString('en-US')} cache read, ${t.cache_write.toLocaleString('en-US')} cache write`,
    ],
    ['Cost', costLine(r)],
    ['Tools', `${r.tool_uses} use${r.tool_uses === 1 ? '' : 's'}, ${r.turns} turn${r.turns === 1 ? '' : 's'}`],
    ['Denied', r.denials.length === 0 ? 'nothing' : r.denials.map((d) => (d.detail ? `${d.tool} (${d.detail})` : d.tool)).join('; ')],
    ['Files', `${r.files_changed} changed${r.changed_files.length > 0 ? `: ${r.changed_files.join(', ')}` : ''}`],
    ['Verify', verifyLine(r)],
    ['Checkpoint', checkpointLine(r)],
    ['Review', r.review ? `${r.review.verdict}, ${r.review.findings_count} finding${r.review.findings_count === 1 ? '' : 's'}` : 'none'],
    [
      'Rate limit',
      r.rate_limit
        ? `${r.rate_limit.window}: ${r.rate_limit.status}${r.rate_limit.used_percent !== null ? `, ${r.rate_limit.used_percent}% used` : ''}${r.rate_limit.resets_at ? `, resets ${r.rate_limit.resets_at}` : ''}`
        : 'none reported',
    ],
    ['Calls/hour', r.calls_this_hour === null ? 'unknown' : String(r.calls_this_hour)],
    ['Retry', r.retry ? `${r.retry.reason}${r.retry.attempt !== null ? ` (attempt ${r.retry.attempt})` : ''}` : 'none'],
    ['Next', exitLine(r)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return `${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n`;
}
