import type { ToolUse } from '../../agent-result.js';
import { isObject, str, type Json } from '../claude/json-fields.js';

/**
 * What a Codex item did, as a neutral tool use: a shell command, a file change, an MCP tool call
 * or a web search. Messages, reasoning, plans and errors are no tool uses (undefined).
 */
export function describeCodexItem(item: Json): ToolUse | undefined {
  switch (str(item['type'])) {
    case 'command_execution':
      return withArgument('Shell', firstLine(unwrapShell(str(item['command']) ?? '')));
    case 'file_change': {
      const changes = Array.isArray(item['changes']) ? item['changes'].filter(isObject) : [];
      const paths = changes.map((c) => str(c['path']) ?? '').filter((p) => p !== '');
      return withArgument('Edit', paths.length > 3 ? `${paths.slice(0, 3).join(', ')} (+${paths.length - 3})` : paths.join(', '));
    }
    case 'mcp_tool_call':
      return { name: [str(item['server']), str(item['tool'])].filter(Boolean).join('.') || 'MCP' };
    case 'web_search':
      return withArgument('WebSearch', str(item['query']) ?? '');
    default:
      return undefined;
  }
}

function withArgument(name: string, argument: string): ToolUse {
  const text = argument.trim().slice(0, 200);
  return text ? { name, argument: text } : { name };
}

/** Codex shows a command as the shell it ran it with: `/bin/bash -lc 'npm test'` reads as `npm test`. */
export function unwrapShell(command: string): string {
  const match = /^(?:\S*\/)?(?:ba|z|da)?sh\s+-l?c\s+(['"])([\s\S]*)\1$/.exec(command.trim());
  if (!match) return command;
  const inner = match[2] as string;
  return match[1] === "'" ? inner.replaceAll(`'\\''`, "'") : inner.replace(/\\([\\"$`])/g, '$1');
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

/** The items whose start is worth showing live (a command runs for a while before it completes). */
export function startsVisibly(item: Json): boolean {
  return str(item['type']) === 'command_execution' || str(item['type']) === 'mcp_tool_call' || str(item['type']) === 'web_search';
}
