import type { DashboardState, LoopView } from '../../src/features/observe/dashboard/dashboard-view.js';
import { LoopCharts } from './charts.js';
import { h } from './dom.js';
import { forgetToken, obtainAccess, REFUSED_MESSAGE, TOKEN_HEADER } from './access.js';
import { followEvents } from './event-stream.js';
import { formatSeconds, formatTime, secondsSince } from './format.js';
import { morphChildren } from './morph.js';
import { recentCard, summaryCards } from './render-loop.js';

const tabs = document.getElementById('tabs') as HTMLElement;
const projectName = document.getElementById('project-name') as HTMLElement;
const projectPath = document.getElementById('project-path') as HTMLElement;
const notice = document.getElementById('notice') as HTMLElement;
const connection = document.getElementById('connection') as HTMLElement;
const main = document.getElementById('loop') as HTMLElement;

const cards = h('div', { class: 'cards' });
const feedback = h('p', { class: 'feedback', 'data-testid': 'feedback', role: 'status' });
const chartsHost = h('div', { class: 'charts' });
const noCharts = h('p', { class: 'muted', 'data-testid': 'no-iterations' }, 'No iteration recorded yet.');
const recentHost = h('div', { class: 'recent' });
const updated = h('p', { class: 'muted updated', 'data-testid': 'updated' });
main.append(feedback, cards, h('h2', { class: 'section' }, 'Per iteration'), noCharts, chartsHost, recentHost, updated);

const charts = new LoopCharts();
let state: DashboardState | null = null;
/** Set once the page has its key (access.ts). */
let token = '';
let selected = new URLSearchParams(location.hash.slice(1)).get('loop') ?? 'main';

function selectedLoop(): LoopView | undefined {
  return state?.loops.find((l) => l.id === selected) ?? state?.loops[0];
}

async function post(action: string, body: object = {}): Promise<void> {
  const loop = selectedLoop();
  if (loop === undefined) return;
  feedback.textContent = '…';
  feedback.dataset['ok'] = '';
  try {
    const res = await fetch(`/api/loops/${encodeURIComponent(loop.id)}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
      body: JSON.stringify(body),
    });
    if (res.status === 401) return refused();
    const answer = (await res.json()) as { ok: boolean; message: string; hint?: string };
    feedback.textContent = answer.hint ? `${answer.message} ${answer.hint}` : answer.message;
    feedback.dataset['ok'] = String(answer.ok);
  } catch (error) {
    feedback.textContent = `The dashboard did not answer (${String(error)}).`;
    feedback.dataset['ok'] = 'false';
  }
}

// One listener for every button of the cards, whatever update drew them (see morph.ts).
cards.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-action]');
  if (button === null || button.disabled) return;
  const action = button.dataset['action'] ?? '';
  if (action.startsWith('gate-')) void post('gate', { answer: action.slice('gate-'.length) });
  else void post(action);
});

tabs.addEventListener('click', (event) => {
  const tab = (event.target as Element).closest<HTMLElement>('button[data-loop]');
  if (tab === null) return;
  selected = tab.dataset['loop'] ?? 'main';
  location.hash = `loop=${encodeURIComponent(selected)}`;
  feedback.textContent = '';
  render();
});

function renderTabs(loops: readonly LoopView[]): void {
  morphChildren(
    tabs,
    loops.map((loop) =>
      h(
        'button',
        { type: 'button', class: 'tab', 'aria-pressed': String(loop.id === selectedLoop()?.id), 'data-testid': `tab-${loop.id}`, 'data-loop': loop.id },
        loop.title,
        loop.queueState ? h('small', {}, ` ${loop.queueState}`) : null,
      ),
    ),
  );
  tabs.hidden = loops.length < 2;
}

function render(): void {
  if (state === null) return;
  notice.hidden = state.notice === null;
  notice.textContent = state.notice ?? '';
  if (projectName.textContent !== state.project.name) projectName.textContent = state.project.name;
  if (projectPath.textContent !== state.project.path) projectPath.textContent = state.project.path;
  renderTabs(state.loops);
  const loop = selectedLoop();
  if (loop === undefined) return;
  document.title = `Ralph · ${state.project.name} · ${loop.title} · ${loop.state.label}`;
  // Only what changed changes: a focused button, or one pressed and not yet released, stays the same element.
  morphChildren(cards, summaryCards(loop));
  // Charts of nothing would only show empty axes.
  noCharts.hidden = loop.iterations.length > 0;
  chartsHost.hidden = loop.iterations.length === 0;
  charts.show(chartsHost, loop.id, loop.iterations);
  morphChildren(recentHost, [recentCard(loop)]);
  const source = loop.outcome?.worktreeKept === false ? "the queue's record" : loop.location === '.' ? 'this project' : loop.location;
  updated.textContent = `Read ${formatTime(state.takenAt)} from ${source}`;
  if (document.body.dataset['loaded'] !== 'true') {
    // How long the page took to show its first data (read by the browser tests).
    performance.mark('ralph-dashboard-rendered');
    document.body.dataset['loaded'] = 'true';
  }
}

function setConnection(text: string, kind: string): void {
  connection.textContent = text;
  connection.dataset['state'] = kind;
}

/** The page cannot go on without a key: it says what to do and asks nothing more. */
function locked(message: string): void {
  notice.hidden = false;
  notice.textContent = message;
  setConnection('not connected', 'lost');
}

function refused(): void {
  forgetToken();
  locked(REFUSED_MESSAGE);
}

async function connect(): Promise<void> {
  const access = await obtainAccess();
  if (!access.ok) return locked(access.message);
  token = access.token;
  followEvents(
    '/api/events',
    { [TOKEN_HEADER]: token },
    {
      onOpen: () => setConnection('live', 'live'),
      onData: (data) => {
        state = JSON.parse(data) as DashboardState;
        render();
      },
      onLost: () => setConnection('reconnecting…', 'lost'),
      onRefused: refused,
    },
  );
}

// The running call's clock moves between updates without asking the server.
setInterval(() => {
  for (const el of document.querySelectorAll<HTMLElement>('[data-elapsed-since]')) {
    const since = el.dataset['elapsedSince'] ?? '';
    if (since !== '') el.textContent = formatSeconds(secondsSince(since, 0));
  }
}, 1000);
window.addEventListener('resize', () => charts.resize());
void connect();
