import type { AgentProgress } from '../../agent-result.js';
import { isObject, str, type Json } from '../claude/json-fields.js';
import { describeCodexItem, startsVisibly } from './codex-items.js';
import { RECONNECTING } from './codex-output.js';

/**
 * Turns Codex's JSONL events into progress events for the live view, one event at a time:
 * the session, each tool use (a command when it starts, an edit when it is done), each agent
 * message, Codex's retries, and the end of the turn.
 */
export function createCodexProgressReader(): { read(event: unknown): AgentProgress[] } {
  let lastMessage: string | undefined;
  const shown = new Set<string>();
  return {
    read(event: unknown): AgentProgress[] {
      if (!isObject(event)) return [];
      const type = str(event['type']);
      const item = isObject(event['item']) ? event['item'] : undefined;
      if (type === 'thread.started') {
        const id = str(event['thread_id']);
        return id ? [{ kind: 'session_started', sessionId: id }] : [];
      }
      if ((type === 'item.started' || type === 'item.completed') && item) {
        if (type === 'item.completed' && str(item['type']) === 'agent_message') {
          lastMessage = str(item['text']) ?? '';
          return [{ kind: 'message', text: lastMessage }];
        }
        if (type === 'item.started' && !startsVisibly(item)) return [];
        return toolUse(item, shown);
      }
      if (type === 'error') {
        const message = str(event['message']) ?? '';
        const retry = RECONNECTING.exec(message);
        if (!retry) return [];
        return [
          {
            kind: 'api_retry',
            attempt: Number(retry[1]),
            maxRetries: Number(retry[2]),
            error: message
              .replace(RECONNECTING, '')
              .trim()
              .replace(/^\(|\)$/g, ''),
          },
        ];
      }
      if (type === 'turn.completed') {
        const done: AgentProgress = { kind: 'finished', isError: false, errorLabel: '', reason: 'completed' };
        if (lastMessage !== undefined) done.answer = lastMessage;
        return [done];
      }
      if (type === 'turn.failed') {
        const error = isObject(event['error']) ? event['error'] : {};
        return [{ kind: 'finished', isError: true, errorLabel: 'turn failed', reason: str(error['message']) ?? 'the turn failed' }];
      }
      return [];
    },
  };
}

/** One tool use per item: a command is shown when it starts, never again when it completes. */
function toolUse(item: Json, shown: Set<string>): AgentProgress[] {
  const id = str(item['id']);
  if (id !== undefined) {
    if (shown.has(id)) return [];
    shown.add(id);
  }
  const use = describeCodexItem(item);
  if (use === undefined) return [];
  return [use.argument === undefined ? { kind: 'tool_use', tool: use.name } : { kind: 'tool_use', tool: use.name, argument: use.argument }];
}
