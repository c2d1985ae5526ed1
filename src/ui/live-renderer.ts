import type { AgentProgress } from '../agent-result.js';
import type { LivePart } from '../core/live-text-redactor.js';
import { sanitizeLine, sanitizeText } from './text-fit.js';

/**
 * `ralph --live`: turns the agent's progress events into text for the terminal and
 * live.log, one event at a time. Pure: the only state is what was printed so far.
 */
export interface LiveRendererOptions {
  /** Print the command / path / pattern of each tool call. */
  showToolArgs: boolean;
}

export interface LiveRenderer {
  /** The text to print for this event ('' when it shows nothing). */
  push(event: AgentProgress): string;
  /** The same text in parts, the agent's own words marked (what a redactor reads across messages). */
  pushParts(event: AgentProgress): LivePart[];
}

function firstLine(text: string): string {
  const line = sanitizeLine(text.trim().split('\n', 1)[0] ?? '');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The text without the newlines it ends with (a pattern anchored at the end scans every run of them). */
function withoutFinalNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

function describeRetry(e: Extract<AgentProgress, { kind: 'api_retry' }>): string {
  const parts = [`⏳ API retry ${e.attempt ?? '?'}${e.maxRetries !== undefined ? `/${e.maxRetries}` : ''}`];
  if (e.error !== undefined || e.status !== undefined)
    parts.push(` — ${[e.error, e.status !== undefined ? `(${e.status})` : undefined].filter(Boolean).join(' ')}`);
  if (e.delayMs !== undefined) parts.push(`, next attempt in ${(e.delayMs / 1000).toFixed(e.delayMs < 10_000 ? 1 : 0)}s`);
  return parts.join('');
}

function describeFinish(e: Extract<AgentProgress, { kind: 'finished' }>, shownText: string): string {
  const facts: string[] = [];
  if (e.turns !== undefined) facts.push(`${e.turns} turn${e.turns === 1 ? '' : 's'}`);
  if (e.costUsd !== undefined) facts.push(`$${e.costUsd.toFixed(4)}`);
  if (e.durationMs !== undefined) facts.push(`${(e.durationMs / 1000).toFixed(1)}s`);
  const tail = facts.length > 0 ? ` · ${facts.join(' · ')}` : '';
  if (!e.isError) return `✅ Done${tail}`;
  // The agent's own error message already printed the same words.
  if (e.reason === '' || e.reason === shownText) return `❌ ${e.errorLabel}${tail}`;
  return `❌ ${e.errorLabel}: ${firstLine(e.reason)}${tail}`;
}

function describeUsageLimit(e: Extract<AgentProgress, { kind: 'usage_limit' }>): string {
  const when = e.resetsAt !== undefined ? ` — resets ${new Date(e.resetsAt).toISOString().replace('.000Z', 'Z')}` : '';
  return `⛔ Usage limit reached (${sanitizeLine(e.limitType)})${when}`;
}

export function createLiveRenderer(options: LiveRendererOptions): LiveRenderer {
  let atLineStart = true;
  let lastText = '';
  let shownText = false;

  const ralph = (text: string): LivePart[] => (text === '' ? [] : [{ text, agent: false }]);
  const emit = (text: string, agent = false): LivePart[] => {
    if (text !== '') atLineStart = text.endsWith('\n');
    return text === '' ? [] : [{ text, agent }];
  };
  /** A whole line of its own, starting on a fresh line; `agent` when the line is the agent's words. */
  const line = (text: string, agent = false): LivePart[] => {
    if (text === '') return [];
    const before = ralph(atLineStart ? '' : '\n');
    emit(text, agent);
    return [...before, { text, agent }, ...emit('\n')];
  };

  const pushParts = (event: AgentProgress): LivePart[] => {
    switch (event.kind) {
      case 'text_delta': {
        const text = sanitizeText(event.text);
        if (text !== '') shownText = true;
        return emit(text, true);
      }
      case 'text_end':
        return atLineStart ? [] : emit('\n');
      case 'message': {
        const text = withoutFinalNewlines(sanitizeText(event.text));
        lastText = text.trim();
        if (text === '') return [];
        shownText = true;
        return line(text, true);
      }
      case 'tool_use': {
        const arg = options.showToolArgs ? event.argument : undefined;
        return line(`⚡ [${sanitizeLine(event.tool)}]${arg ? ` ${sanitizeLine(arg)}` : ''}`);
      }
      case 'task_started':
        return line(`🚀 ${sanitizeLine(event.tool)}: ${firstLine(event.description)}`);
      case 'task_progress':
        return line(`📌 ${firstLine(event.description)}`);
      case 'api_retry':
        return line(describeRetry(event));
      case 'usage_limit':
        return line(describeUsageLimit(event));
      case 'finished': {
        // An answer printed only at the end (no streamed text before it) is shown once here.
        const answer = !shownText && !event.isError ? withoutFinalNewlines(sanitizeText(event.answer ?? '')) : '';
        shownText ||= answer !== '';
        return [...line(answer, true), ...line(describeFinish(event, lastText))];
      }
      case 'session_started':
        return [];
    }
  };

  return {
    pushParts,
    push: (event) =>
      pushParts(event)
        .map((part) => part.text)
        .join(''),
  };
}
