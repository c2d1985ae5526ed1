import type { PermissionDenial, TokenUsage, ToolUse } from '../../agent-result.js';
import { digestOf, emptyDigest, isTextDigest, type TextDigest } from '../../core/text-digest.js';
import { isObject, str, type Json } from '../claude/json-fields.js';
import { describeCodexItem } from './codex-items.js';
import { codexWindowsOf, rateLimitsOf, type CodexWindow } from './codex-windows.js';

/**
 * What one `codex exec --json` run reported, read from its JSONL events:
 * `thread.started` (the session id), `item['started']` / `item['updated']` / `item['completed']` (agent
 * messages, commands, file changes, errors), `turn.completed` (tokens), `turn.failed` and
 * `error` (the failure; "Reconnecting… n/m" errors are retries that may still succeed).
 */
export interface CodexOutput {
  threadId?: string;
  /** The turn's last agent message: where the answer and its status block are. */
  text: TextDigest;
  /** `turn.completed` arrived: the agent finished its turn. */
  turnCompleted: boolean;
  /** The message of `turn.failed`, when the turn failed. */
  turnFailed?: string;
  /** Error events that were not retries, in order (bounded). */
  errors: string[];
  /** Retries Codex reported on its way ("Reconnecting… 1/5 (…)"). */
  retries: number;
  /** The thread's token totals so far, as `turn.completed` reports them (not this call's alone). */
  threadUsage?: TokenUsage;
  toolUses: number;
  lastToolUse?: ToolUse;
  permissionDenials: PermissionDenial[];
  /**
   * Commands that failed because the file system or the system refused them ("Read-only file
   * system", "Permission denied"): under Codex's own sandbox, its refusals.
   */
  refusedCommands: PermissionDenial[];
  /** Problems Codex reported that did not fail the turn, and problems reading its output. */
  warnings: string[];
  /** Events read. */
  events: number;
  /** The subscription windows its events reported (rate_limits), the latest of each. */
  windows: CodexWindow[];
}

const MAX_KEPT = 20;
/** What a command prints when the sandbox (or the system) refuses it a write or an action. */
const REFUSED_OUTPUT = /Read-only file system|Permission denied|Operation not permitted/;
export const RECONNECTING = /^Reconnecting(?:\.*|…)\s*(\d+)\/(\d+)/;

export class CodexOutputBuilder {
  private readonly out: CodexOutput = {
    text: emptyDigest(),
    turnCompleted: false,
    errors: [],
    retries: 0,
    toolUses: 0,
    permissionDenials: [],
    refusedCommands: [],
    warnings: [],
    events: 0,
    windows: [],
  };

  accept(value: unknown): void {
    if (!isObject(value)) return;
    this.out.events += 1;
    const limits = rateLimitsOf(value);
    if (limits) this.acceptWindows(codexWindowsOf(limits));
    const type = str(value['type']);
    if (type === 'thread.started') {
      const id = str(value['thread_id']);
      if (id) this.out.threadId = id;
    } else if (type === 'item.completed') {
      this.completed(isObject(value['item']) ? value['item'] : {});
    } else if (type === 'turn.completed') {
      this.out.turnCompleted = true;
      const usage = readUsage(value['usage']);
      if (usage) this.out.threadUsage = usage;
    } else if (type === 'turn.failed') {
      const error = isObject(value['error']) ? value['error'] : {};
      this.out.turnFailed = str(error['message']) ?? 'the turn failed';
    } else if (type === 'error') {
      const message = str(value['message']) ?? '';
      if (RECONNECTING.test(message)) this.out.retries += 1;
      else keep(this.out.errors, message);
    }
  }

  private acceptWindows(windows: readonly CodexWindow[]): void {
    for (const w of windows) {
      const known = this.out.windows.findIndex((k) => k.kind === w.kind);
      if (known >= 0) this.out.windows[known] = w;
      else if (this.out.windows.length < MAX_KEPT) this.out.windows.push(w);
    }
  }

  private completed(item: Json): void {
    const kind = str(item['type']);
    if (kind === 'agent_message') {
      const text = item['text'];
      if (isTextDigest(text)) this.out.text = text;
      else if (typeof text === 'string') this.out.text = digestOf(text);
      return;
    }
    if (kind === 'error') {
      keep(this.out.warnings, str(item['message']) ?? 'Codex reported an error');
      return;
    }
    const use = describeCodexItem(item);
    if (use === undefined) return;
    this.out.toolUses += 1;
    this.out.lastToolUse = use;
    // Codex marks a command or patch its approval mode refused as declined (not seen offline with 0.169, where approvals are "never").
    if (str(item['status']) === 'declined' && this.out.permissionDenials.length < MAX_KEPT) {
      const denial: PermissionDenial = { tool: use.name };
      if (use.argument !== undefined) denial.detail = use.argument;
      this.out.permissionDenials.push(denial);
    }
    if (kind === 'command_execution' && str(item['status']) === 'failed' && REFUSED_OUTPUT.test(outputOf(item)) && this.out.refusedCommands.length < MAX_KEPT) {
      this.out.refusedCommands.push(use.argument === undefined ? { tool: use.name } : { tool: use.name, detail: use.argument });
    }
  }

  finish(parseWarnings: readonly string[]): CodexOutput {
    for (const w of parseWarnings) keep(this.out.warnings, w);
    return this.out;
  }
}

function keep(list: string[], message: string): void {
  if (list.length < MAX_KEPT) list.push(message.slice(0, 2000));
}

/**
 * Codex's usage: `input_tokens` counts the cached ones too; Ralph's input tokens exclude what
 * was read from the cache, as Claude reports them.
 */
export function readUsage(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const input = n(value['input_tokens']);
  const cached = Math.min(n(value['cached_input_tokens']), input);
  return {
    inputTokens: input - cached,
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: n(value['cache_write_input_tokens']),
    outputTokens: n(value['output_tokens']),
  };
}

/** A command item's output, as a string or the digest a long one is kept as. */
function outputOf(item: Json): string {
  const output = item['aggregated_output'];
  if (typeof output === 'string') return output;
  return isTextDigest(output) ? `${output.head}\n${output.tail}` : '';
}
