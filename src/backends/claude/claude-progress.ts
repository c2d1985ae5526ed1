import type { AgentProgress } from '../../agent-result.js';
import { digestText, isTextDigest } from '../../core/text-digest.js';
import { toolArgument } from './claude-tool-argument.js';

/**
 * Turns the Claude CLI's output events (already parsed: the result object of `--output-format
 * json`, or each line of stream-json) into neutral progress, one event at a time. The only
 * state is what the stream said so far.
 *
 * With --include-partial-messages the text arrives twice — as deltas and again in the
 * assistant message — so a message's text is reported from its deltas when it had any, and
 * from the assistant event otherwise (plain stream-json, and the CLI's synthetic error
 * messages, which have no deltas).
 */
export interface ClaudeProgressReader {
  read(event: unknown): AgentProgress[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : isTextDigest(v) ? digestText(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** Tool names kept by tool_use id, to name the tasks they start (the oldest forgotten past this). */
const KNOWN_TOOLS = 500;

type Progress<K extends AgentProgress['kind']> = Extract<AgentProgress, { kind: K }>;

/** `base` with those of `optional` that the event had (absent fields stay absent, not undefined). */
function withDefined<T extends AgentProgress>(base: T, optional: { [K in keyof T]?: T[K] | undefined }): T {
  const out = { ...base };
  for (const key of Object.keys(optional) as Array<keyof T>) {
    const value = optional[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function retry(e: Rec): AgentProgress {
  return withDefined<Progress<'api_retry'>>(
    { kind: 'api_retry' },
    {
      attempt: num(e['attempt']),
      maxRetries: num(e['max_retries']),
      error: str(e['error']),
      status: num(e['error_status']),
      delayMs: num(e['retry_delay_ms']),
    },
  );
}

function finished(e: Rec): AgentProgress {
  const subtype = str(e['subtype']);
  const status = num(e['api_error_status']);
  const errors = Array.isArray(e['errors']) ? e['errors'].filter((x): x is string => typeof x === 'string') : [];
  const answer = str(e['result']);
  return withDefined<Progress<'finished'>>(
    {
      kind: 'finished',
      isError: e['is_error'] === true,
      errorLabel: `${subtype && subtype !== 'success' ? subtype : 'Error'}${status !== undefined ? ` (API ${status})` : ''}`,
      reason: (answer ?? errors[0] ?? '').trim(),
    },
    { answer, turns: num(e['num_turns']), costUsd: num(e['total_cost_usd']), durationMs: num(e['duration_ms']) },
  );
}

function usageLimit(e: Rec): AgentProgress[] {
  const info = isRec(e['rate_limit_info']) ? e['rate_limit_info'] : undefined;
  if (!info || info['status'] !== 'rejected') return [];
  const resets = num(info['resetsAt']);
  return [
    withDefined<Progress<'usage_limit'>>(
      { kind: 'usage_limit', limitType: str(info['rateLimitType']) ?? 'usage' },
      { resetsAt: resets === undefined ? undefined : resets * 1000 },
    ),
  ];
}

export function createClaudeProgressReader(): ClaudeProgressReader {
  let currentMessage = '';
  const streamedMessages = new Set<string>();
  const toolNames = new Map<string, string>();
  const openTextBlocks = new Set<number>();

  const onStreamEvent = (event: Rec): AgentProgress[] => {
    const type = str(event['type']);
    if (type === 'message_start') {
      currentMessage = str(isRec(event['message']) ? event['message']['id'] : undefined) ?? '';
      return [];
    }
    const index = num(event['index']) ?? -1;
    if (type === 'content_block_start') {
      if (isRec(event['content_block']) && event['content_block']['type'] === 'text') openTextBlocks.add(index);
      return [];
    }
    if (type === 'content_block_delta' && isRec(event['delta']) && event['delta']['type'] === 'text_delta') {
      streamedMessages.add(currentMessage);
      return [{ kind: 'text_delta', text: str(event['delta']['text']) ?? '' }];
    }
    if (type === 'content_block_stop' && openTextBlocks.delete(index)) return [{ kind: 'text_end' }];
    return [];
  };

  const onAssistant = (event: Rec): AgentProgress[] => {
    const message = isRec(event['message']) ? event['message'] : {};
    const streamed = streamedMessages.has(str(message['id']) ?? '');
    const content = Array.isArray(message['content']) ? message['content'] : [];
    const out: AgentProgress[] = [];
    for (const block of content) {
      if (!isRec(block)) continue;
      if (block['type'] === 'text' && !streamed) out.push({ kind: 'message', text: str(block['text']) ?? '' });
      else if (block['type'] === 'tool_use') {
        const tool = str(block['name']) ?? 'tool';
        const id = str(block['id']);
        if (id !== undefined) {
          toolNames.set(id, tool);
          if (toolNames.size > KNOWN_TOOLS) toolNames.delete(toolNames.keys().next().value as string);
        }
        const argument = toolArgument(tool, block['input']);
        out.push(argument === undefined ? { kind: 'tool_use', tool } : { kind: 'tool_use', tool, argument });
      }
    }
    return out;
  };

  /**
   * A started task is whatever tool started it: a long or background Bash command is not a
   * sub-agent. The tool call seen earlier names it best; the task's own type comes next.
   */
  const taskTool = (event: Rec): string => {
    const known = toolNames.get(str(event['tool_use_id']) ?? '');
    if (known !== undefined) return known;
    const type = str(event['task_type']) ?? '';
    if (/bash|shell/i.test(type)) return 'Bash';
    if (type === '' || /agent/i.test(type)) return 'Agent';
    return type;
  };

  const onSystem = (event: Rec): AgentProgress[] => {
    const subtype = str(event['subtype']);
    if (subtype === 'init') {
      const sessionId = str(event['session_id']);
      return sessionId === undefined ? [] : [{ kind: 'session_started', sessionId }];
    }
    if (subtype === 'api_retry') return [retry(event)];
    if (subtype === 'task_started')
      return [{ kind: 'task_started', tool: taskTool(event), description: str(event['description']) ?? str(event['task_type']) ?? 'task' }];
    if (subtype === 'task_progress') {
      const description = str(event['description']);
      return description ? [{ kind: 'task_progress', description }] : [];
    }
    return [];
  };

  return {
    read(event: unknown): AgentProgress[] {
      if (!isRec(event)) return [];
      switch (event['type']) {
        case 'stream_event':
          return isRec(event['event']) ? onStreamEvent(event['event']) : [];
        case 'assistant':
          return onAssistant(event);
        case 'system':
          return onSystem(event);
        case 'rate_limit_event':
          return usageLimit(event);
        case 'result':
          return [finished(event)];
        default:
          return [];
      }
    },
  };
}
