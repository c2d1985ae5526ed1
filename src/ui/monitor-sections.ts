import { describeCost, formatUsd } from '../core/cost-display.js';
import { EXIT_REASONS, type ExitReason } from '../core/exit-reasons.js';
import type { StatusDocument, StatusWaiting } from '../core/status-model.js';
import { nearCallLimit } from '../core/call-limit.js';
import { clockTime, formatCountdown, formatDuration, parseIso } from '../core/time-format.js';
import { part, type Line, type Part, type Style } from './styled-line.js';
import type { ProgressDocument } from '../state/documents/progress.js';
import type { MonitorSnapshot } from '../state/monitor-snapshot.js';
import { describePendingStop } from './render-status.js';

/** The dashboard's sections, one function each, as styled lines. Pure. */

export const LABEL_WIDTH = 13;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FINAL_STATUSES = new Set(['completed', 'halted', 'stopped', 'interrupted']);

function field(label: string, ...value: Part[]): Line {
  return [part(`  ${`${label}:`.padEnd(LABEL_WIDTH)}`, 'dim'), ...value];
}

export { formatUsd };

/** A cost as shown to a user: an estimate from tokens and list prices says so, and so do calls of unknown cost. */
export function formatCost(value: number, estimated: boolean, unknownCalls = 0): string {
  return describeCost({ usd: value, estimated, unknownCalls });
}

/** 1234567 → "1,234,567". */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "14:32:00 (in 01:02:03)" for an ISO time, or undefined when it is not one. */
export function describeUntil(until: string | null, now: number): string | undefined {
  const at = parseIso(until);
  if (at === undefined) return undefined;
  const left = (at - now) / 1000;
  return left > 0 ? `${clockTime(at)} (in ${formatCountdown(left)})` : `${clockTime(at)} (due now)`;
}

function describeAge(timestamp: string, now: number): string | undefined {
  const at = parseIso(timestamp);
  if (at === undefined) return undefined;
  return `${formatDuration(Math.max(0, now - at) / 1000)} ago`;
}

export function stateStyle(state: string): Style {
  const s = state.toLowerCase();
  if (['completed', 'success', 'closed', 'passing', 'passed'].includes(s)) return 'green';
  if (['halted', 'error', 'failed', 'open', 'failing', 'aborted', 'escalated'].includes(s)) return 'red';
  if (['stopped', 'interrupted', 'paused', 'waiting', 'half_open', 'skipped'].includes(s)) return 'yellow';
  return 'cyan';
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** The loop has stopped: it recorded an exit code, or a final status with a reason. */
export function isFinished(doc: StatusDocument): boolean {
  return doc.exit_code !== null || (FINAL_STATUSES.has(doc.status) && doc.exit_reason !== '');
}

function isExitReason(value: string): value is ExitReason {
  return Object.hasOwn(EXIT_REASONS, value);
}

function exitCodeOf(doc: StatusDocument): number | undefined {
  if (doc.exit_code !== null) return doc.exit_code;
  return isExitReason(doc.exit_reason) ? EXIT_REASONS[doc.exit_reason].exitCode : undefined;
}

export function statusSection(doc: StatusDocument, snapshot: MonitorSnapshot, now: number): Line[] {
  const finished = isFinished(doc);
  const lines: Line[] = [];
  const loop: Part[] = [part(`#${doc.loop_count}`, 'bold')];
  if (doc.limits.max_loops > 0) loop.push(part(` of ${doc.limits.max_loops}`));
  const started = parseIso(doc.started_at);
  if (started !== undefined && !finished) loop.push(part(` · running for ${formatDuration((now - started) / 1000)}`, 'dim'));
  lines.push(field('Loop', ...loop));
  if (doc.backend) lines.push(field('Agent', part(doc.backend)));

  const status: Part[] = [part(doc.status, stateStyle(doc.status))];
  if (doc.last_action && doc.last_action !== doc.status) status.push(part(` · ${doc.last_action}`));
  const age = describeAge(doc.timestamp, now);
  if (age) status.push(part(` · updated ${age}`, 'dim'));
  lines.push(field('Status', ...status));
  // The loop acts on a stop between steps; until then it still says "running".
  const stop = snapshot.stopRequest;
  if (stop && !finished && snapshot.loopAlive !== false) lines.push(field('Stop', part(describePendingStop(stop, now), 'yellow')));
  if (snapshot.loopAlive === false && !finished) {
    lines.push(field('Warning', part(`loop process ${doc.pid ?? '?'} is not running`, 'red'), part(' — it may have crashed; this state is stale')));
  }

  const calls: Part[] = [part(`${doc.calls_made_this_hour}/${doc.max_calls_per_hour}`), part(' this hour')];
  // When the next slot frees up only matters once the hour's calls run out.
  if (doc.next_reset && nearCallLimit(doc.calls_made_this_hour, doc.max_calls_per_hour)) calls.push(part(` · next slot ${doc.next_reset}`, 'dim'));
  lines.push(field('API calls', ...calls));
  const tokenLimit = doc.max_tokens_per_hour > 0 ? formatCount(doc.max_tokens_per_hour) : 'unlimited';
  lines.push(field('Tokens', part(`${formatCount(doc.tokens_used_this_hour)}/${tokenLimit}`), part(' this hour')));
  const t = doc.totals;
  lines.push(
    field(
      'Run tokens',
      part(`in ${formatCount(t.input_tokens)} · out ${formatCount(t.output_tokens)}`),
      part(` · cache read ${formatCount(t.cache_read_input_tokens)} · cache write ${formatCount(t.cache_creation_input_tokens)}`, 'dim'),
    ),
  );
  const cost: Part[] = [part(formatCost(t.cost_usd, t.cost_estimated, t.cost_unknown_calls), 'bold')];
  if (doc.limits.max_cost_usd > 0) cost.push(part(` of ${formatUsd(doc.limits.max_cost_usd)} limit`));
  cost.push(part(` · ${t.calls} agent call${t.calls === 1 ? '' : 's'} · ${t.num_turns} turns`, 'dim'));
  lines.push(field('Cost', ...cost));

  const li = doc.last_iteration;
  if (li) {
    // What the iteration amounted to, not only that the agent's call returned: a failed verify is no success.
    const said = li.result || li.outcome || 'unknown';
    const style = li.success === null ? stateStyle(li.outcome) : li.success ? stateStyle('success') : stateStyle('failed');
    const parts: Part[] = [part(`#${li.loop} `), part(said, style), part(` in ${formatDuration(li.duration_ms / 1000)}`)];
    parts.push(part(` · ${li.files_changed} file${li.files_changed === 1 ? '' : 's'} changed`));
    if (li.summary) parts.push(part(` · ${li.summary}`, 'dim'));
    lines.push(field('Last loop', ...parts));
  }
  if (doc.message && !finished) lines.push(field('Message', part(doc.message)));
  return lines;
}

export function circuitSection(doc: StatusDocument, snapshot: MonitorSnapshot, wholeIds = false): Line[] {
  const lines: Line[] = [];
  const file = snapshot.circuit;
  if (file.kind === 'corrupt') {
    lines.push(field('Circuit', part(`state file corrupt (${file.reason})`, 'red')));
  } else {
    const c = file.kind === 'ok' ? file.value : doc.circuit;
    if (c === null) {
      lines.push(field('Circuit', part('CLOSED', 'green'), part(' · no breaker state yet', 'dim')));
    } else {
      const parts: Part[] = [part(c.state, stateStyle(c.state))];
      if (c.reason) parts.push(part(` — ${c.reason}`));
      lines.push(field('Circuit', ...parts));
      const counters = `no progress ${c.consecutive_no_progress} · same error ${c.consecutive_same_error} · failures ${c.consecutive_failures} · opened ${c.total_opens}×`;
      if (c.state !== 'CLOSED' || c.consecutive_no_progress + c.consecutive_same_error + c.consecutive_failures > 0)
        lines.push(field('Breaker', part(counters, 'dim')));
    }
  }
  const session = snapshot.sessionId;
  lines.push(field('Session', session ? part(wholeIds ? session : shortId(session)) : part('none yet', 'dim')));
  return lines;
}

/** `still`: no spinner glyph, for a frame that does not animate (a pipe). */
export function progressSection(progress: ProgressDocument, now: number, still = false): Line[] {
  const started = parseIso(progress.started_at);
  // started_at lets the elapsed time tick between the loop's progress writes.
  const elapsed = started !== undefined ? Math.max(0, (now - started) / 1000) : progress.elapsed_seconds;
  const spinner = SPINNER[Math.floor(now / 1000) % SPINNER.length] ?? '⠋';
  const status: Part[] = [part(still ? 'Working' : `${spinner} Working`, 'cyan'), part(` (${formatDuration(elapsed)} elapsed)`)];
  if (progress.loop !== null) status.push(part(` · loop #${progress.loop}`, 'dim'));
  const tool: Part[] = progress.current_tool ? [part(progress.current_tool, 'yellow')] : [part('thinking…', 'dim')];
  tool.push(part(` · ${progress.tool_uses} tool use${progress.tool_uses === 1 ? '' : 's'}`, 'dim'));
  return [
    field('Status', ...status),
    field('Tool', ...tool),
    field('Output', progress.last_output ? part(progress.last_output) : part('(no output yet)', 'dim')),
  ];
}

function lastNonEmptyLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i -= 1) if (lines[i]) return lines[i] ?? '';
  return '';
}

export function verifySection(doc: StatusDocument): Line[] {
  const v = doc.verify;
  if (!v || (v.command === '' && v.last === null)) return [];
  const lines: Line[] = [field('Command', part(v.command || '(unknown)'))];
  const attempt = v.max_attempts > 0 ? `attempt ${v.attempt}/${v.max_attempts}` : `attempt ${v.attempt}`;
  const last = v.last;
  if (last === null) {
    lines.push(field('Result', part('not run yet', 'dim')));
  } else {
    const verdict: Part = last.passed
      ? part('PASSED', 'green')
      : last.timed_out
        ? part('TIMED OUT', 'red')
        : part(`FAILED (exit ${last.exit_code ?? '?'})`, 'red');
    const at = parseIso(last.at);
    const extra = [attempt, `${formatDuration(last.duration_ms / 1000)}`, ...(at !== undefined ? [`at ${clockTime(at)}`] : [])];
    lines.push(field('Result', verdict, part(` · ${extra.join(' · ')}`)));
    const tail = last.passed ? '' : lastNonEmptyLine(last.output_tail);
    if (tail) lines.push(field('Output', part(tail, 'dim')));
  }
  if (v.state === 'escalated') lines.push(field('Gate', part('ESCALATED', 'red'), part(' — answer with: ralph --gate-action retry|skip|abort')));
  else if (v.state === 'aborted' || v.state === 'skipped') lines.push(field('Gate', part(v.state.toUpperCase(), stateStyle(v.state))));
  return lines;
}

const WAIT_REASONS: Record<StatusWaiting['reason'], string> = {
  rate_limit: 'hourly call/token limit reached',
  usage_limit: "the agent's usage limit reached",
  api_retry: 'API error, retrying',
  verify_gate: 'verify gate waiting for a decision',
  quota_window: 'parked until a subscription window resets (--park-at)',
};

export function waitingSection(waiting: StatusWaiting, now: number): Line[] {
  const lines: Line[] = [field('Reason', part(WAIT_REASONS[waiting.reason], 'yellow'))];
  lines.push(field('Until', part(describeUntil(waiting.until, now) ?? 'unknown')));
  if (waiting.message) lines.push(field('Message', part(waiting.message)));
  return lines;
}

export function finishedSection(doc: StatusDocument): Line[] {
  const code = exitCodeOf(doc);
  const style: Style = code === 0 ? 'green' : 'red';
  const lines: Line[] = [field('Exit reason', part(doc.exit_reason || '(none recorded)', style), part(code === undefined ? '' : ` (exit code ${code})`))];
  const why = isExitReason(doc.exit_reason) ? EXIT_REASONS[doc.exit_reason].describe : undefined;
  if (why) lines.push(field('Why', part(why)));
  if (doc.message && doc.message !== why) lines.push(field('Message', part(doc.message)));
  return lines;
}

const LEVEL_STYLES: Record<string, Style> = { INFO: 'blue', WARN: 'yellow', ERROR: 'red', SUCCESS: 'green', LOOP: 'magenta', DEBUG: 'dim' };

/** A ralph.log line `[YYYY-MM-DD HH:MM:SS] [LEVEL] message`, level coloured. */
export function formatLogLine(line: string): Line {
  const m = /^\[([^\]]*)\] \[([A-Z]+)\] ?(.*)$/.exec(line);
  if (!m) return [part(`  ${line}`)];
  const [, ts = '', level = '', message = ''] = m;
  return [part(`  [${ts}] `, 'dim'), part(`[${level}]`, LEVEL_STYLES[level] ?? 'dim'), part(` ${message}`)];
}
