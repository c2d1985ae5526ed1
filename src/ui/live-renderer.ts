import { isRecord as isRec } from '../core/guards.js';
import { toolArgument } from '../core/agent-output.js';
import { sanitizeLine, sanitizeText } from './text-fit.js';

/**
 * `ralph --live`: turns Claude's stream-json events (already parsed) into
 * text for the terminal and live.log, one event at a time. Pure: the only
 * state is what the stream said so far.
 *
 * With --include-partial-messages the text arrives twice — as deltas and
 * again in the assistant message — so a message's text is printed from its
 * deltas when it had any, and from the assistant event otherwise (plain
 * stream-json, and the CLI's synthetic error messages, which have no deltas).
 */
export interface LiveRendererOptions {
  /** Print the command / path / pattern of each tool call. */
  showToolArgs: boolean;
}

export interface LiveRenderer {
  /** The text to print for this event ('' when it shows nothing). */
  push(event: unknown): string;
}

type Rec = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function firstLine(text: string): string {
  const line = sanitizeLine(text.trim().split('\n', 1)[0] ?? '');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function describeRetry(e: Rec): string {
  const attempt = num(e['attempt']);
  const max = num(e['max_retries']);
  const parts = [`⏳ API retry ${attempt ?? '?'}${max !== undefined ? `/${max}` : ''}`];
  const error = str(e['error']);
  const status = num(e['error_status']);
  if (error !== undefined || status !== undefined) parts.push(` — ${[error, status !== undefined ? `(${status})` : undefined].filter(Boolean).join(' ')}`);
  const delay = num(e['retry_delay_ms']);
  if (delay !== undefined) parts.push(`, next attempt in ${(delay / 1000).toFixed(delay < 10_000 ? 1 : 0)}s`);
  return parts.join('');
}

function describeResult(e: Rec, shownText: string): string {
  const facts: string[] = [];
  const turns = num(e['num_turns']);
  if (turns !== undefined) facts.push(`${turns} turn${turns === 1 ? '' : 's'}`);
  const cost = num(e['total_cost_usd']);
  if (cost !== undefined) facts.push(`$${cost.toFixed(4)}`);
  const ms = num(e['duration_ms']);
  if (ms !== undefined) facts.push(`${(ms / 1000).toFixed(1)}s`);
  const tail = facts.length > 0 ? ` · ${facts.join(' · ')}` : '';
  if (e['is_error'] !== true) return `✅ Done${tail}`;
  const subtype = str(e['subtype']);
  const errors = Array.isArray(e['errors']) ? e['errors'].filter((x): x is string => typeof x === 'string') : [];
  const status = num(e['api_error_status']);
  const label = `${subtype && subtype !== 'success' ? subtype : 'Error'}${status !== undefined ? ` (API ${status})` : ''}`;
  const why = (str(e['result']) ?? errors[0] ?? '').trim();
  // The CLI's synthetic error message already printed the same words.
  if (why === '' || why === shownText) return `❌ ${label}${tail}`;
  return `❌ ${label}: ${firstLine(why)}${tail}`;
}

function describeRateLimit(e: Rec): string {
  const info = isRec(e['rate_limit_info']) ? e['rate_limit_info'] : undefined;
  if (!info || info['status'] !== 'rejected') return '';
  const kind = str(info['rateLimitType']) ?? 'usage';
  const resets = num(info['resetsAt']);
  const when = resets !== undefined ? ` — resets ${new Date(resets * 1000).toISOString().replace('.000Z', 'Z')}` : '';
  return `⛔ Usage limit reached (${sanitizeLine(kind)})${when}`;
}

export function createLiveRenderer(options: LiveRendererOptions): LiveRenderer {
  let atLineStart = true;
  let currentMessage = '';
  const streamedMessages = new Set<string>();
  /** Tool name by tool_use id, to name the tasks they start (the oldest forgotten past a bound). */
  const toolNames = new Map<string, string>();
  const openTextBlocks = new Set<number>();
  let lastText = '';
  let shownText = false;

  const emit = (text: string): string => {
    if (text !== '') atLineStart = text.endsWith('\n');
    return text;
  };
  /** A whole line of its own, starting on a fresh line. */
  const line = (text: string): string => (text === '' ? '' : emit(`${atLineStart ? '' : '\n'}${text}\n`));

  const onStreamEvent = (event: Rec): string => {
    const type = str(event['type']);
    if (type === 'message_start') {
      const message = isRec(event['message']) ? event['message'] : {};
      currentMessage = str(message['id']) ?? '';
      return '';
    }
    const index = num(event['index']) ?? -1;
    if (type === 'content_block_start') {
      if (isRec(event['content_block']) && event['content_block']['type'] === 'text') openTextBlocks.add(index);
      return '';
    }
    if (type === 'content_block_delta' && isRec(event['delta']) && event['delta']['type'] === 'text_delta') {
      const text = sanitizeText(str(event['delta']['text']) ?? '');
      streamedMessages.add(currentMessage);
      if (text !== '') shownText = true;
      return emit(text);
    }
    if (type === 'content_block_stop' && openTextBlocks.delete(index)) return atLineStart ? '' : emit('\n');
    return '';
  };

  const onAssistant = (event: Rec): string => {
    const message = isRec(event['message']) ? event['message'] : {};
    const streamed = streamedMessages.has(str(message['id']) ?? '');
    const content = Array.isArray(message['content']) ? message['content'] : [];
    let out = '';
    for (const block of content) {
      if (!isRec(block)) continue;
      if (block['type'] === 'text' && !streamed) {
        const text = sanitizeText(str(block['text']) ?? '').replace(/\n+$/, '');
        if (text !== '') {
          out += line(text);
          shownText = true;
        }
        lastText = text.trim();
      } else if (block['type'] === 'tool_use') {
        const name = sanitizeLine(str(block['name']) ?? 'tool');
        const id = str(block['id']);
        if (id !== undefined) {
          toolNames.set(id, name);
          if (toolNames.size > 500) toolNames.delete(toolNames.keys().next().value as string);
        }
        const arg = options.showToolArgs ? toolArgument(name, block['input']) : undefined;
        out += line(`⚡ [${name}]${arg ? ` ${sanitizeLine(arg)}` : ''}`);
      }
    }
    return out;
  };

  /**
   * A started task is whatever tool started it: a long or background Bash
   * command is not a sub-agent. The tool call seen earlier names it best;
   * the task's own type comes next.
   */
  const taskTool = (event: Rec): string => {
    const known = toolNames.get(str(event['tool_use_id']) ?? '');
    if (known !== undefined) return known;
    const type = str(event['task_type']) ?? '';
    if (/bash|shell/i.test(type)) return 'Bash';
    if (type === '' || /agent/i.test(type)) return 'Agent';
    return sanitizeLine(type);
  };

  const onSystem = (event: Rec): string => {
    const subtype = str(event['subtype']);
    if (subtype === 'api_retry') return line(describeRetry(event));
    if (subtype === 'task_started') return line(`🚀 ${taskTool(event)}: ${firstLine(str(event['description']) ?? str(event['task_type']) ?? 'task')}`);
    if (subtype === 'task_progress') {
      const description = str(event['description']);
      return description ? line(`📌 ${firstLine(description)}`) : '';
    }
    return '';
  };

  return {
    push(event: unknown): string {
      if (!isRec(event)) return '';
      switch (event['type']) {
        case 'stream_event':
          return isRec(event['event']) ? onStreamEvent(event['event']) : '';
        case 'assistant':
          return onAssistant(event);
        case 'system':
          return onSystem(event);
        case 'rate_limit_event':
          return line(describeRateLimit(event));
        case 'result': {
          // `--output-format json` prints only the result object: show its answer once.
          const answer = !shownText && event['is_error'] !== true ? sanitizeText(str(event['result']) ?? '').replace(/\n+$/, '') : '';
          shownText ||= answer !== '';
          return (answer ? line(answer) : '') + line(describeResult(event, lastText));
        }
        default:
          return '';
      }
    },
  };
}
