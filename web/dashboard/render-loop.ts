import type { LoopView, RecentIteration } from '../../src/features/observe/dashboard/dashboard-view.js';
import { card, h, row } from './dom.js';
import { formatCount, formatSeconds, formatTime, formatUsd, secondsSince } from './format.js';

/**
 * The buttons carry what they do in `data-action` (stop, gate-retry, gate-skip, gate-abort,
 * reset-circuit); main.ts listens on the cards' container, so an update that keeps a button
 * (morph.ts) never leaves it with an outdated listener.
 */

const badge = (text: string, kind: string, testId?: string): HTMLElement => h('span', { class: `badge ${kind}`, 'data-testid': testId }, text);

/** The queue's record of how an item ended: shown on the loop card, and all there is once its worktree is gone. */
function outcomeRows(loop: LoopView): Array<HTMLElement | null> {
  const o = loop.outcome;
  const checks = loop.follow ? row('Pull request checks', loop.follow, 'queue-follow') : null;
  if (o === null) return [checks];
  const exit = o.exitReason === '' ? '' : ` — ${o.exitReason}${o.exitCode === null ? '' : ` (exit ${o.exitCode})`}`;
  return [
    row('Queue outcome', `${o.state}${exit}`, 'queue-outcome'),
    o.error ? row('Why', o.error) : null,
    o.finishedAt ? row('Finished', formatTime(o.finishedAt)) : null,
    o.branch ? row('Branch', h('code', {}, o.branch)) : null,
    o.prUrl ? row('Pull request', o.prUrl) : null,
    checks,
    o.worktreeKept ? null : h('p', { class: 'muted', 'data-testid': 'record-only' }, 'Its worktree was removed: this is what the queue recorded.'),
  ];
}

function stateCard(loop: LoopView): HTMLElement {
  const s = loop.state;
  const exit = s.exitReason === '' ? '—' : `${s.exitReason}${s.exitCode === null ? '' : ` (exit ${s.exitCode})`}`;
  const gone = s.alive === false && !s.finished ? h('p', { class: 'problem' }, 'The loop process is gone without recording how it ended.') : null;
  const running = s.alive === true && !s.finished;
  const stop = h(
    'button',
    { type: 'button', 'data-testid': 'stop', 'data-action': 'stop', disabled: !running, title: 'Like ralph --stop: the loop stops after its current step' },
    'Stop after this step',
  );
  return card(
    'Loop',
    'card-state',
    h('div', { class: 'headline' }, badge(s.label, s.tone, 'loop-status'), loop.queueState ? badge(`queue: ${loop.queueState}`, 'idle') : null),
    gone,
    s.waitingFor
      ? h(
          'p',
          { class: 'waiting', 'data-testid': 'waiting-for' },
          s.waiting
            ? `Waiting: ${s.waiting.reason}${s.waiting.until ? ` until ${formatTime(s.waiting.until)}` : ''}: ${s.waiting.message}`
            : `Waiting for ${s.waitingFor}.`,
        )
      : null,
    ...outcomeRows(loop),
    row('Exit reason', exit, 'exit-reason'),
    // The message of a loop that waits is from before it began to wait ("… is working").
    s.message && !s.waitingFor ? row('Message', s.message) : null,
    row('Loop number', s.loopCount, 'loop-count'),
    row('Calls this hour', s.maxCallsPerHour > 0 ? `${s.callsThisHour} / ${s.maxCallsPerHour}` : String(s.callsThisHour), 'calls-hour'),
    row('Backend', s.backend || '—', 'backend'),
    ...s.windows.map((line) => row('Window', line, 'quota-window')),
    row('Session', s.sessionId ?? '—', 'session'),
    row('Started', formatTime(s.startedAt)),
    row('Last action', s.lastAction || '—'),
    h('div', { class: 'buttons' }, stop),
  );
}

function callCard(loop: LoopView): HTMLElement {
  const call = loop.call;
  if (call === null) return card('Agent call', 'card-call', h('p', { class: 'muted' }, loop.state.finished ? 'The loop has finished.' : 'No call running.'));
  return card(
    'Agent call',
    'card-call',
    row('Current tool', call.tool ?? '—', 'current-tool'),
    row(
      'Elapsed',
      h(
        'span',
        { 'data-elapsed-since': call.startedAt ?? '', 'data-testid': 'call-elapsed' },
        formatSeconds(secondsSince(call.startedAt, call.elapsedSeconds)),
      ),
    ),
    row('Tool uses', call.toolUses),
    call.lastOutput ? row('Last output', h('code', {}, call.lastOutput)) : null,
  );
}

function costCard(loop: LoopView): HTMLElement {
  const t = loop.totals;
  const total = loop.iterations[loop.iterations.length - 1]?.cumulativeCostUsd;
  return card(
    'Cost and tokens',
    'card-cost',
    h('div', { class: 'big', 'data-testid': 'cost' }, formatUsd(t.costUsd, t.costEstimated)),
    h('p', { class: 'muted' }, t.costEstimated ? 'this run; partly estimated from tokens and list prices' : 'this run'),
    total !== undefined ? row('All recorded runs', formatUsd(total), 'cost-all-runs') : null,
    row('Input tokens', formatCount(t.inputTokens), 'tokens-in'),
    row('Output tokens', formatCount(t.outputTokens), 'tokens-out'),
    row('Cache read / written', `${formatCount(t.cacheReadTokens)} / ${formatCount(t.cacheCreationTokens)}`),
    row('Agent calls', t.calls),
  );
}

function circuitCard(loop: LoopView): HTMLElement {
  const c = loop.circuit;
  const kind = c.state === 'CLOSED' ? 'good' : c.state === 'OPEN' ? 'bad' : 'warn';
  const history =
    c.history.length === 0
      ? h('p', { class: 'muted' }, 'No transitions recorded.')
      : h(
          'table',
          { 'data-testid': 'circuit-history' },
          h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Loop'), h('th', {}, 'Change'), h('th', {}, 'Reason'))),
          h(
            'tbody',
            {},
            ...c.history.map((t) => h('tr', {}, h('td', {}, formatTime(t.at)), h('td', {}, t.loop), h('td', {}, `${t.from} → ${t.to}`), h('td', {}, t.reason))),
          ),
        );
  const button = h(
    'button',
    { type: 'button', 'data-testid': 'reset-circuit', 'data-action': 'reset-circuit', disabled: c.state === 'CLOSED' || loop.state.alive === true },
    'Reset circuit',
  );
  return card(
    'Circuit breaker',
    'card-circuit',
    h('div', { class: 'headline' }, badge(c.state, kind, 'circuit-state')),
    c.reason ? row('Reason', c.reason) : null,
    row('No progress / same error', `${c.noProgress} / ${c.sameError}`),
    row('Times opened', c.totalOpens),
    history,
    h('div', { class: 'buttons' }, button),
  );
}

function verifyCard(loop: LoopView): HTMLElement {
  const v = loop.verify;
  if (v === null) return card('Verify gate', 'card-verify', h('p', { class: 'muted' }, 'No verify command has run in this project.'));
  const kind = v.status === 'passed' ? 'good' : v.status === 'escalated' || v.status === 'aborted' ? 'bad' : 'warn';
  const buttons = (['retry', 'skip', 'abort'] as const).map((answer) =>
    h('button', { type: 'button', 'data-testid': `gate-${answer}`, 'data-action': `gate-${answer}`, disabled: !v.paused }, answer),
  );
  return card(
    'Verify gate',
    'card-verify',
    h('div', { class: 'headline' }, badge(v.paused ? 'paused: waiting for an answer' : v.status, kind, 'verify-status')),
    row('Command', h('code', {}, v.command)),
    row('Failed attempts', `${v.attempt} / ${v.maxAttempts}`, 'verify-attempts'),
    row('Last run', v.lastPassed === null ? '—' : v.lastPassed ? 'passed' : 'failed'),
    v.lastFailureTail
      ? h('details', { open: v.paused }, h('summary', {}, 'Last failure (end of its output)'), h('pre', { 'data-testid': 'verify-tail' }, v.lastFailureTail))
      : null,
    h('div', { class: 'buttons' }, ...buttons),
  );
}

function recentRow(it: RecentIteration, underWay: boolean): HTMLElement {
  const verify = it.verifyPassed === null ? '—' : it.verifyPassed ? '✔ passed' : '✘ failed';
  return h(
    'tr',
    { class: it.success === false ? 'failed' : '' },
    h('td', {}, it.iteration),
    h('td', {}, it.result || (underWay ? 'under way…' : '—')),
    h('td', {}, verify),
    h('td', {}, it.durationSec === null ? '—' : formatSeconds(it.durationSec)),
    h('td', {}, it.filesChanged === null ? '—' : it.filesChanged),
    h('td', { class: 'summary' }, it.summary || '—'),
  );
}

export function recentCard(loop: LoopView): HTMLElement {
  if (loop.recent.length === 0) return card('Last iterations', 'card-recent', h('p', { class: 'muted' }, 'No iteration recorded yet.'));
  return card(
    'Last iterations',
    'card-recent',
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, '#'), h('th', {}, 'Result'), h('th', {}, 'Verify'), h('th', {}, 'Took'), h('th', {}, 'Files'), h('th', {}, 'Summary')),
      ),
      h('tbody', { 'data-testid': 'recent-rows' }, ...loop.recent.map((it, i) => recentRow(it, i === 0 && loop.state.alive === true && !loop.state.finished))),
    ),
  );
}

/** The reviewer pass (--review): its reviews, the last verdict and its findings. */
function reviewCard(review: NonNullable<LoopView['review']>): HTMLElement {
  const verdict = review.last_verdict === '' ? 'not reviewed yet' : review.last_verdict;
  const kind = review.last_verdict === 'APPROVED' ? 'good' : review.last_verdict === '' ? 'idle' : 'warn';
  return card(
    'Review',
    'card-review',
    h('div', { class: 'headline' }, badge(verdict, kind, 'review-verdict')),
    row('Reviewer', review.backend),
    row('Reviews', `${review.reviews} (${review.rejected_in_a_row} / ${review.max_rejected} rejected in a row)`, 'review-count'),
    row('Cost', formatUsd(review.cost_usd)),
    review.findings.length > 0 ? h('ul', { 'data-testid': 'review-findings' }, ...review.findings.map((f) => h('li', {}, f))) : null,
  );
}

/** The cards above the charts. */
export function summaryCards(loop: LoopView): HTMLElement[] {
  const cards = [stateCard(loop), callCard(loop), costCard(loop), circuitCard(loop), verifyCard(loop)];
  if (loop.review) cards.push(reviewCard(loop.review));
  if (loop.problems.length > 0) cards.push(card('Files that could not be read', 'card-problems', h('ul', {}, ...loop.problems.map((p) => h('li', {}, p)))));
  return cards;
}
