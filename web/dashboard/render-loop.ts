import type { LoopView, RecentIteration } from '../../src/features/dashboard/dashboard-view.js';
import { card, h, row } from './dom.js';
import { formatCount, formatSeconds, formatTime, formatUsd, secondsSince } from './format.js';

/** What the buttons of a card do; main.ts posts them to the server. */
export interface Actions {
  stop(): void;
  gate(answer: 'retry' | 'skip' | 'abort'): void;
  resetCircuit(): void;
}

const badge = (text: string, kind: string, testId?: string): HTMLElement => h('span', { class: `badge ${kind}`, 'data-testid': testId }, text);

function stateKind(loop: LoopView): string {
  if (!loop.started) return 'idle';
  if (loop.state.finished) return loop.state.exitCode === 0 ? 'good' : 'bad';
  if (loop.state.alive === false) return 'bad';
  return loop.state.waiting ? 'warn' : 'live';
}

function stateCard(loop: LoopView, actions: Actions): HTMLElement {
  const s = loop.state;
  const exit = s.exitReason === '' ? '—' : `${s.exitReason}${s.exitCode === null ? '' : ` (exit ${s.exitCode})`}`;
  const gone = s.alive === false && !s.finished ? h('p', { class: 'problem' }, 'The loop process is gone without recording how it ended.') : null;
  const running = s.alive === true && !s.finished;
  const stop = h(
    'button',
    { type: 'button', 'data-testid': 'stop', disabled: !running, title: 'Like ralph --stop: the loop stops after its current step' },
    'Stop after this step',
  );
  stop.addEventListener('click', () => actions.stop());
  return card(
    'Loop',
    'card-state',
    h('div', { class: 'headline' }, badge(s.status, stateKind(loop), 'loop-status'), loop.queueState ? badge(`queue: ${loop.queueState}`, 'idle') : null),
    gone,
    row('Exit reason', exit, 'exit-reason'),
    s.message ? row('Message', s.message) : null,
    row('Loop number', s.loopCount, 'loop-count'),
    row('Calls this hour', s.maxCallsPerHour > 0 ? `${s.callsThisHour} / ${s.maxCallsPerHour}` : String(s.callsThisHour), 'calls-hour'),
    row('Backend', s.backend || '—', 'backend'),
    row('Session', s.sessionId ?? '—', 'session'),
    row('Started', formatTime(s.startedAt)),
    row('Last action', s.lastAction || '—'),
    s.waiting ? row('Waiting', `${s.waiting.reason}${s.waiting.until ? ` until ${formatTime(s.waiting.until)}` : ''}: ${s.waiting.message}`) : null,
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

function circuitCard(loop: LoopView, actions: Actions): HTMLElement {
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
  const button = h('button', { type: 'button', 'data-testid': 'reset-circuit', disabled: c.state === 'CLOSED' || loop.state.alive === true }, 'Reset circuit');
  button.addEventListener('click', () => actions.resetCircuit());
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

function verifyCard(loop: LoopView, actions: Actions): HTMLElement {
  const v = loop.verify;
  if (v === null) return card('Verify gate', 'card-verify', h('p', { class: 'muted' }, 'No verify command has run in this project.'));
  const kind = v.status === 'passed' ? 'good' : v.status === 'escalated' || v.status === 'aborted' ? 'bad' : 'warn';
  const buttons = (['retry', 'skip', 'abort'] as const).map((answer) => {
    const b = h('button', { type: 'button', 'data-testid': `gate-${answer}`, disabled: !v.paused }, answer);
    b.addEventListener('click', () => actions.gate(answer));
    return b;
  });
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

/** The cards above the charts. */
export function summaryCards(loop: LoopView, actions: Actions): HTMLElement[] {
  const cards = [stateCard(loop, actions), callCard(loop), costCard(loop), circuitCard(loop, actions), verifyCard(loop, actions)];
  if (loop.problems.length > 0) cards.push(card('Files that could not be read', 'card-problems', h('ul', {}, ...loop.problems.map((p) => h('li', {}, p)))));
  return cards;
}
