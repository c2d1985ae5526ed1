import type { AgentProgress, PermissionDenial, TokenUsage, ToolUse } from '../../agent-result.js';
import { TextAccumulator, type TextDigest } from '../../core/text-digest.js';

/**
 * What `opencode run --format json` printed, folded as it arrives. Each line is one event:
 * `step_start`, `text` (a whole text part), `tool_use` (a finished tool call, `state.status`
 * completed or error), `step_finish` (`reason`, `tokens`, `cost` of one model call) and
 * `error` (`error.name`, `error.data.{message,statusCode,responseHeaders,responseBody}`), each
 * with the `sessionID`. Only the last message's text is kept, as a bounded digest; a line longer
 * than the reader keeps is skipped with a warning, so memory stays bounded whatever it prints.
 */
export interface OpencodeError {
  name: string;
  message: string;
  status?: number;
  /** The API's response headers, lower-cased names (where a reset time may be). */
  headers: Record<string, string>;
  body?: string;
}

export interface OpencodeOutput {
  sessionId?: string;
  /** The text of the last message that had any. */
  text: TextDigest;
  /** Model calls that finished (step_finish events). */
  steps: number;
  /** Why the last model call ended ("stop", "tool-calls", "length"). */
  finishReason?: string;
  usage?: TokenUsage;
  /** The cost OpenCode computed from its model prices (0 when it knows none). */
  costUsd: number;
  toolUses: number;
  lastToolUse?: ToolUse;
  permissionDenials: PermissionDenial[];
  error?: OpencodeError;
  warnings: string[];
  /** Characters printed. */
  chars: number;
  /** Events read. */
  events: number;
}

/** Longest line read; OpenCode cuts tool output far below this. */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;
/** Refusals kept (the count of tool calls goes on). */
const MAX_DENIALS = 50;
const REFUSED = /prevents you from using this specific tool call|rejected permission to use this specific tool/i;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * OpenCode's tool names as Claude Code spells them, the names Ralph's allowed tools and its
 * screens use; a tool not listed keeps its own name.
 */
const NEUTRAL_TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  write: 'Write',
  edit: 'Edit',
  patch: 'Edit',
  read: 'Read',
  glob: 'Glob',
  grep: 'Grep',
  list: 'LS',
  webfetch: 'WebFetch',
  websearch: 'WebSearch',
  todowrite: 'TodoWrite',
  todoread: 'TodoRead',
  task: 'Task',
};

export function neutralToolName(tool: string): string {
  return NEUTRAL_TOOL_NAMES[tool] ?? tool;
}

/** The main argument of a tool call, as the live view shows it. */
export function toolArgument(input: unknown): string | undefined {
  if (!isRec(input)) return undefined;
  const value = str(input['command']) ?? str(input['filePath']) ?? str(input['path']) ?? str(input['pattern']) ?? str(input['url']);
  return value?.split('\n', 1)[0]?.slice(0, 200);
}

export class OpencodeEventReader {
  private line = '';
  private skipping = false;
  private messageId: string | undefined;
  private text = new TextAccumulator();
  private textChars = 0;
  private lastText: TextDigest | undefined;
  private usage: TokenUsage | undefined;
  private readonly out: Omit<OpencodeOutput, 'text' | 'usage'> = {
    steps: 0,
    costUsd: 0,
    toolUses: 0,
    permissionDenials: [],
    warnings: [],
    chars: 0,
    events: 0,
  };
  private sessionAnnounced = false;

  constructor(private readonly onProgress?: (event: AgentProgress) => void) {}

  write(chunk: string): void {
    this.out.chars += chunk.length;
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      this.take(chunk.slice(start, nl));
      this.endLine();
      start = nl + 1;
    }
    this.take(chunk.slice(start));
  }

  end(): OpencodeOutput {
    this.endLine();
    const text = this.textChars > 0 ? this.text.digest() : (this.lastText ?? this.text.digest());
    const output: OpencodeOutput = { ...this.out, text };
    if (this.usage) output.usage = this.usage;
    return output;
  }

  private take(piece: string): void {
    if (this.skipping || piece === '') return;
    if (this.line.length + piece.length > MAX_LINE_CHARS) {
      this.skipping = true;
      this.line = '';
      this.out.warnings.push(`An output line longer than ${MAX_LINE_CHARS} characters was skipped.`);
      return;
    }
    this.line += piece;
  }

  private endLine(): void {
    const line = this.line.trim();
    this.line = '';
    this.skipping = false;
    if (!line.startsWith('{')) return;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      this.out.warnings.push(`An output line is not valid JSON: ${line.slice(0, 120)}`);
      return;
    }
    if (isRec(event)) this.read(event);
  }

  private emit(event: AgentProgress): void {
    this.onProgress?.(event);
  }

  private read(event: Rec): void {
    this.out.events += 1;
    const sessionId = str(event['sessionID']);
    if (sessionId && !this.out.sessionId) this.out.sessionId = sessionId;
    if (sessionId && !this.sessionAnnounced) {
      this.sessionAnnounced = true;
      this.emit({ kind: 'session_started', sessionId });
    }
    const part = isRec(event['part']) ? event['part'] : {};
    switch (event['type']) {
      case 'text':
        return this.readText(part);
      case 'tool_use':
        return this.readTool(part);
      case 'step_finish':
        return this.readStepFinish(part);
      case 'error':
        return this.readError(event['error']);
      default:
        return;
    }
  }

  private readText(part: Rec): void {
    const text = str(part['text']);
    if (text === undefined) return;
    const messageId = str(part['messageID']);
    if (messageId !== this.messageId) {
      if (this.textChars > 0) this.lastText = this.text.digest();
      this.text = new TextAccumulator();
      this.textChars = 0;
      this.messageId = messageId;
    } else if (this.textChars > 0) this.text.write('\n');
    this.text.write(text);
    this.textChars += text.length;
    this.emit({ kind: 'message', text });
  }

  private readTool(part: Rec): void {
    const tool = neutralToolName(str(part['tool']) ?? 'tool');
    const state = isRec(part['state']) ? part['state'] : {};
    const argument = toolArgument(state['input']);
    this.out.toolUses += 1;
    this.out.lastToolUse = argument === undefined ? { name: tool } : { name: tool, argument };
    this.emit(argument === undefined ? { kind: 'tool_use', tool } : { kind: 'tool_use', tool, argument });
    const error = str(state['error']);
    if (state['status'] === 'error' && error && REFUSED.test(error) && this.out.permissionDenials.length < MAX_DENIALS) {
      this.out.permissionDenials.push(argument === undefined ? { tool } : { tool, detail: argument });
    }
  }

  private readStepFinish(part: Rec): void {
    this.out.steps += 1;
    const reason = str(part['reason']);
    if (reason !== undefined) this.out.finishReason = reason;
    this.out.costUsd += num(part['cost']);
    const tokens = isRec(part['tokens']) ? part['tokens'] : undefined;
    if (tokens) {
      const cache = isRec(tokens['cache']) ? tokens['cache'] : {};
      const u = this.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
      // OpenCode's input excludes the tokens read from the cache, as Ralph counts them.
      u.inputTokens += num(tokens['input']);
      u.outputTokens += num(tokens['output']) + num(tokens['reasoning']);
      u.cacheReadInputTokens += num(cache['read']);
      u.cacheCreationInputTokens += num(cache['write']);
      this.usage = u;
    }
    if (reason !== 'tool-calls') {
      const answer = this.textChars > 0 ? this.text.digest() : undefined;
      const event: AgentProgress = { kind: 'finished', isError: false, errorLabel: 'Error', reason: reason ?? 'stop', turns: this.out.steps };
      if (answer) event.answer = answer.head;
      if (this.out.costUsd > 0) event.costUsd = this.out.costUsd;
      this.emit(event);
    }
  }

  private readError(value: unknown): void {
    const error = isRec(value) ? value : {};
    const data = isRec(error['data']) ? error['data'] : {};
    const headers = isRec(data['responseHeaders']) ? data['responseHeaders'] : {};
    const found: OpencodeError = {
      name: str(error['name']) ?? 'Error',
      message: str(data['message']) ?? str(error['message']) ?? 'OpenCode reported an error',
      headers: Object.fromEntries(Object.entries(headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k.toLowerCase(), v]] : []))),
    };
    if (typeof data['statusCode'] === 'number') found.status = data['statusCode'];
    const body = str(data['responseBody']);
    if (body !== undefined) found.body = body.slice(0, 4000);
    this.out.error = found;
    const label = `${found.name}${found.status !== undefined ? ` (API ${found.status})` : ''}`;
    this.emit({ kind: 'finished', isError: true, errorLabel: label, reason: found.message.slice(0, 300), turns: this.out.steps });
  }
}
