import type { PermissionDenial, RateLimitWindow, SelfReport, TokenUsage, ToolUse } from '../../agent-result.js';
import { claudeWindowsOf } from './claude-windows.js';
import { firstLine, toolArgument } from './claude-tool-argument.js';
import { digestOf, emptyDigest, isTextDigest, type TextDigest } from '../../core/text-digest.js';
import { isObject, str, type Json } from './json-fields.js';

/**
 * A bounded, normalized digest of one agent call's stdout, whatever its shape
 * among: a Claude CLI result object, a CLI message array (`--verbose`), a
 * stream-json event stream, the flat Ralph JSON format, or plain text.
 * Every field of the agent's JSON is optional and untrusted.
 */
export type OutputFormat = 'json' | 'json-array' | 'stream-json' | 'text' | 'empty';

export interface RateLimitInfo {
  status?: string;
  /** Epoch seconds. */
  resetsAt?: number;
  type?: string;
}

export interface ClaudeOutput {
  format: OutputFormat;
  /** Characters of stdout seen. */
  chars: number;
  /** A Claude CLI result object (`"type": "result"`) was found. */
  hasResult: boolean;
  isError?: boolean;
  subtype?: string;
  apiErrorStatus?: number;
  apiErrorType?: string;
  apiError?: string;
  terminalReason?: string;
  /** The result's `errors[]` (error_max_turns, error_during_execution, …). */
  errors: string[];
  sessionId?: string;
  /** The agent's final message (or the whole output in text mode). */
  text: TextDigest;
  usage?: TokenUsage;
  costUsd?: number;
  numTurns?: number;
  durationMs?: number;
  model?: string;
  permissionDenials: PermissionDenial[];
  /** The last rate_limit_event of a stream. */
  rateLimit?: RateLimitInfo;
  /** The subscription windows the stream's rate_limit_events reported, the latest state of each. */
  windows: RateLimitWindow[];
  /** Number of system/api_retry events in a stream. */
  apiRetries: number;
  /** The synthetic assistant message's `error` in a stream ("rate_limit", …). */
  streamError?: string;
  /** Flat Ralph JSON fields or CLI `metadata`. */
  selfReport?: SelfReport;
  toolUseCount: number;
  lastToolUse?: ToolUse;
  /** Problems met while reading the output (malformed JSON, …). */
  warnings: string[];
}

export function emptyClaudeOutput(): ClaudeOutput {
  return {
    format: 'empty',
    chars: 0,
    hasResult: false,
    errors: [],
    text: emptyDigest(),
    permissionDenials: [],
    windows: [],
    apiRetries: 0,
    toolUseCount: 0,
    warnings: [],
  };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return undefined;
}
function textOf(value: unknown): TextDigest | undefined {
  if (isTextDigest(value)) return value;
  if (typeof value === 'string') return digestOf(value);
  return undefined;
}

function readUsage(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const u = {
    inputTokens: num(value['input_tokens']) ?? 0,
    outputTokens: num(value['output_tokens']) ?? 0,
    cacheReadInputTokens: num(value['cache_read_input_tokens']) ?? 0,
    cacheCreationInputTokens: num(value['cache_creation_input_tokens']) ?? 0,
  };
  return u;
}

function readDenials(value: unknown): PermissionDenial[] {
  if (!Array.isArray(value)) return [];
  const out: PermissionDenial[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const tool = str(item['tool_name']) ?? 'unknown';
    const input = item['tool_input'];
    const command = tool === 'Bash' && isObject(input) ? str(input['command']) : undefined;
    out.push(command === undefined ? { tool } : { tool, detail: firstLine(command.trim(), 200) });
  }
  return out;
}

function readSelfReport(source: Json, metadata: Json | undefined): SelfReport | undefined {
  const report: SelfReport = {};
  const set = <K extends keyof SelfReport>(key: K, value: SelfReport[K] | undefined): void => {
    if (value !== undefined) report[key] = value;
  };
  set('status', str(source['status']));
  set('exitSignal', bool(source['exit_signal']));
  set('workType', str(source['work_type']));
  set('filesModified', num(source['files_modified']) ?? (metadata ? num(metadata['files_changed']) : undefined));
  set('errorCount', num(source['error_count']));
  set('confidence', num(source['confidence']));
  set('summary', str(source['summary']));
  if (metadata) {
    set('hasErrors', bool(metadata['has_errors']));
    set('completionStatus', str(metadata['completion_status']));
    const indicators = metadata['progress_indicators'];
    if (Array.isArray(indicators)) report.progressIndicators = indicators.length;
  }
  return Object.keys(report).length > 0 ? report : undefined;
}

/**
 * Collects the facts that matter from each top-level JSON value as the stream
 * parser produces it, without keeping the values.
 */
export class ClaudeOutputBuilder {
  private readonly out: ClaudeOutput = emptyClaudeOutput();
  private initSessionId: string | undefined;
  /** Kept as read (digested only if it ends up used): a stream holds thousands of text blocks. */
  private lastAssistantText: TextDigest | string | undefined;
  private topLevelValues = 0;
  private sawArray = false;

  accept(value: unknown): void {
    this.topLevelValues += 1;
    if (Array.isArray(value)) {
      this.sawArray = true;
      for (const item of value) this.acceptMessage(item);
      return;
    }
    this.acceptMessage(value);
  }

  private acceptMessage(value: unknown): void {
    if (!isObject(value)) return;
    const type = str(value['type']);
    switch (type) {
      case 'result':
        this.acceptResult(value);
        return;
      case 'system':
        this.acceptSystem(value);
        return;
      case 'rate_limit_event': {
        const info = value['rate_limit_info'];
        if (isObject(info)) {
          const rl: RateLimitInfo = {};
          const status = str(info['status']);
          const resetsAt = num(info['resetsAt']);
          const rlType = str(info['rateLimitType']);
          if (status !== undefined) rl.status = status;
          if (resetsAt !== undefined) rl.resetsAt = resetsAt;
          if (rlType !== undefined) rl.type = rlType;
          this.out.rateLimit = rl;
          this.acceptWindows(claudeWindowsOf(info));
        }
        return;
      }
      case 'assistant':
        this.acceptAssistant(value);
        return;
      case undefined:
        this.acceptFlat(value);
        return;
      default:
        return;
    }
  }

  private acceptWindows(windows: readonly RateLimitWindow[]): void {
    for (const w of windows) {
      const known = this.out.windows.findIndex((k) => k.kind === w.kind);
      if (known >= 0) this.out.windows[known] = w;
      else if (this.out.windows.length < 20) this.out.windows.push(w);
    }
  }

  private acceptResult(value: Json): void {
    const o = this.out;
    o.hasResult = true;
    const isError = bool(value['is_error']);
    if (isError !== undefined) o.isError = isError;
    const set = <K extends keyof ClaudeOutput>(key: K, v: ClaudeOutput[K] | undefined): void => {
      if (v !== undefined) o[key] = v;
    };
    set('subtype', str(value['subtype']));
    set('apiErrorStatus', num(value['api_error_status']));
    set('apiErrorType', str(value['api_error_type']));
    set('apiError', str(value['api_error']));
    set('terminalReason', str(value['terminal_reason']));
    const errors = value['errors'];
    if (Array.isArray(errors)) o.errors = errors.map((e) => str(e) ?? JSON.stringify(e)).slice(0, 20);
    const metadata = isObject(value['metadata']) ? value['metadata'] : undefined;
    set('sessionId', str(value['session_id']) ?? str(value['sessionId']) ?? (metadata ? str(metadata['session_id']) : undefined));
    const text = textOf(value['result']);
    if (text !== undefined) o.text = text;
    set('usage', readUsage(value['usage']) ?? (metadata ? readUsage(metadata['usage']) : undefined));
    set('costUsd', num(value['total_cost_usd']));
    set('numTurns', num(value['num_turns']));
    set('durationMs', num(value['duration_ms']));
    o.permissionDenials = readDenials(value['permission_denials']);
    const modelUsage = value['modelUsage'];
    if (isObject(modelUsage)) {
      const models = Object.keys(modelUsage);
      if (models[0] !== undefined) o.model = models[0];
    }
    const report = readSelfReport(value, metadata);
    if (report) o.selfReport = report;
  }

  private acceptSystem(value: Json): void {
    const subtype = str(value['subtype']);
    if (subtype === 'init') {
      this.initSessionId = str(value['session_id']) ?? this.initSessionId;
      const model = str(value['model']);
      if (model !== undefined) this.out.model = model;
    } else if (subtype === 'api_retry') {
      this.out.apiRetries += 1;
    }
  }

  private acceptAssistant(value: Json): void {
    const error = str(value['error']);
    if (error !== undefined) this.out.streamError = error;
    const message = value['message'];
    if (!isObject(message)) return;
    const content = message['content'];
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block)) continue;
      const blockType = str(block['type']);
      if (blockType === 'text') {
        const text = block['text'];
        if ((typeof text === 'string' || isTextDigest(text)) && text.length > 0) this.lastAssistantText = text;
      } else if (blockType === 'tool_use') {
        const name = str(block['name']) ?? 'unknown';
        this.out.toolUseCount += 1;
        const argument = toolArgument(name, block['input']);
        this.out.lastToolUse = argument === undefined ? { name } : { name, argument };
      }
    }
  }

  private acceptFlat(value: Json): void {
    const metadata = isObject(value['metadata']) ? value['metadata'] : undefined;
    const report = readSelfReport(value, metadata);
    if (!report) return;
    this.out.selfReport = report;
    const summary = textOf(value['result']) ?? textOf(value['summary']);
    if (summary !== undefined) this.out.text = summary;
    const sessionId = str(value['session_id']) ?? str(value['sessionId']) ?? (metadata ? str(metadata['session_id']) : undefined);
    if (sessionId !== undefined) this.out.sessionId = sessionId;
  }

  /**
   * @param raw digest of the whole stdout as text (used for text output and as
   *   the fallback when the JSON is malformed)
   * @param parseError the JSON parser's error, if it stopped
   */
  finish(raw: TextDigest, chars: number, looksLikeJson: boolean, parseError: string | undefined, incomplete: boolean): ClaudeOutput {
    const o = this.out;
    o.chars = chars;
    if (chars === 0 || (raw.head.trim().length === 0 && raw.tail.trim().length === 0)) {
      o.format = 'empty';
      return o;
    }
    if (!looksLikeJson) {
      o.format = 'text';
      o.text = raw;
      return o;
    }
    o.format = this.sawArray ? 'json-array' : this.topLevelValues > 1 ? 'stream-json' : 'json';
    const usable = o.hasResult || o.selfReport !== undefined;
    if (parseError !== undefined) o.warnings.push(`agent output is not valid JSON (${parseError}); analyzed as text`);
    else if (incomplete) o.warnings.push('agent output ended in the middle of a JSON value (killed or truncated)');
    else if (!usable && this.topLevelValues > 0) o.warnings.push('agent output has no result (the agent was stopped before it finished)');
    if (!usable) {
      if (this.lastAssistantText !== undefined) {
        o.text = textOf(this.lastAssistantText) ?? o.text;
      } else if (parseError !== undefined || this.topLevelValues === 0) {
        o.format = 'text';
        o.text = raw;
      }
    }
    if (o.sessionId === undefined && this.initSessionId !== undefined) o.sessionId = this.initSessionId;
    return o;
  }
}
