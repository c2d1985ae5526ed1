import type { AgentProgress, PermissionDenial, TokenUsage, ToolUse } from '../../agent-result.js';
import { digestText, TextAccumulator, type TextDigest } from '../../core/text-digest.js';
import { geminiToolArgument, ralphToolName } from './gemini-tool-names.js';

/**
 * Reads Gemini CLI's `--output-format stream-json` (one JSON event per line: init, message,
 * tool_use, tool_result, error, result) as it arrives and keeps a bounded digest of it. The
 * answer is the assistant's message text (head and tail kept), a line is parsed only when it
 * is whole and no longer than MAX_LINE_CHARS (a longer one, a tool's huge output, is skipped
 * and counted), and lines that are not JSON (a wrapper's notice) are kept only as a short
 * text for error messages.
 */
export interface GeminiOutput {
  sessionId?: string;
  /** The assistant's text over the whole call: where RALPH_STATUS is read. */
  text: TextDigest;
  /** The result event arrived: the turn ended. */
  hasResult: boolean;
  resultStatus?: string;
  /** The result's error message (an API error, the CLI's quota message). */
  errorMessage?: string;
  /** Error events of severity "error" (an invalid stream, too many turns). */
  errors: string[];
  usage?: TokenUsage;
  /** Tokens per model that answered, for the price estimate. */
  modelUsage: Array<{ model: string; usage: TokenUsage }>;
  toolUseCount: number;
  lastToolUse?: ToolUse;
  permissionDenials: PermissionDenial[];
  warnings: string[];
  /** Lines that were not JSON events (bounded). */
  otherText: string;
  chars: number;
}

const MAX_LINE_CHARS = 4 * 1024 * 1024;
const MAX_DENIALS = 100;
const MAX_ERRORS = 20;
const OTHER_TEXT_CHARS = 4096;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Gemini's stats: input_tokens counts the cached ones too, `input` does not. */
function tokenUsage(stats: Rec): TokenUsage {
  const cached = num(stats['cached']);
  const input = typeof stats['input'] === 'number' ? num(stats['input']) : Math.max(0, num(stats['input_tokens']) - cached);
  return { inputTokens: input, outputTokens: num(stats['output_tokens']), cacheReadInputTokens: cached, cacheCreationInputTokens: 0 };
}

export class GeminiStreamReader {
  private line: string[] = [];
  private lineChars = 0;
  private skipping = false;
  private skippedLines = 0;
  private readonly text = new TextAccumulator();
  private textOpen = false;
  private other = '';
  private readonly out: Omit<GeminiOutput, 'text' | 'otherText'> = {
    hasResult: false,
    errors: [],
    modelUsage: [],
    toolUseCount: 0,
    permissionDenials: [],
    warnings: [],
    chars: 0,
  };
  /** Tool calls by id, until their result says whether they were refused. */
  private readonly pending = new Map<string, ToolUse>();

  constructor(private readonly onProgress?: (event: AgentProgress) => void) {}

  write(chunk: string): void {
    this.out.chars += chunk.length;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf('\n', start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.slice(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
  }

  end(): GeminiOutput {
    this.endLine();
    this.closeText();
    if (this.skippedLines > 0) this.out.warnings.push(`${this.skippedLines} output line(s) longer than ${MAX_LINE_CHARS} characters were skipped`);
    return { ...this.out, text: this.text.digest(), otherText: this.other };
  }

  private take(piece: string): void {
    if (this.skipping || piece.length === 0) return;
    this.lineChars += piece.length;
    if (this.lineChars > MAX_LINE_CHARS) {
      this.line = [];
      this.skipping = true;
      return;
    }
    this.line.push(piece);
  }

  private endLine(): void {
    if (this.skipping) this.skippedLines += 1;
    const line = this.line.join('').trim();
    this.line = [];
    this.lineChars = 0;
    this.skipping = false;
    if (line === '') return;
    let event: unknown;
    try {
      event = line.startsWith('{') ? JSON.parse(line) : undefined;
    } catch {
      event = undefined;
    }
    if (isRec(event) && typeof event['type'] === 'string') this.read(event);
    else if (this.other.length < OTHER_TEXT_CHARS) this.other = `${this.other}${line.slice(0, OTHER_TEXT_CHARS - this.other.length)}\n`;
  }

  private emit(event: AgentProgress): void {
    this.onProgress?.(event);
  }

  private closeText(): void {
    if (!this.textOpen) return;
    this.textOpen = false;
    this.emit({ kind: 'text_end' });
  }

  private read(e: Rec): void {
    switch (e['type']) {
      case 'init': {
        const id = str(e['session_id']);
        if (id === undefined) return;
        this.out.sessionId = id;
        this.emit({ kind: 'session_started', sessionId: id });
        return;
      }
      case 'message': {
        const content = str(e['content']);
        if (e['role'] !== 'assistant' || content === undefined || content === '') return;
        this.text.write(content);
        this.textOpen = true;
        this.emit({ kind: 'text_delta', text: content });
        return;
      }
      case 'tool_use':
        return this.toolUse(e);
      case 'tool_result':
        return this.toolResult(e);
      case 'error': {
        const message = str(e['message']);
        if (message === undefined) return;
        if (e['severity'] === 'error' && this.out.errors.length < MAX_ERRORS) this.out.errors.push(message);
        else if (this.out.warnings.length < MAX_ERRORS) this.out.warnings.push(message);
        return;
      }
      case 'result':
        return this.result(e);
      default:
        return;
    }
  }

  private toolUse(e: Rec): void {
    this.closeText();
    const tool = ralphToolName(str(e['tool_name']) ?? 'unknown');
    const argument = geminiToolArgument(e['parameters']);
    const use: ToolUse = argument === undefined ? { name: tool } : { name: tool, argument };
    this.out.toolUseCount += 1;
    this.out.lastToolUse = use;
    const id = str(e['tool_id']);
    if (id !== undefined && this.pending.size < 1000) this.pending.set(id, use);
    this.emit(argument === undefined ? { kind: 'tool_use', tool } : { kind: 'tool_use', tool, argument });
  }

  private toolResult(e: Rec): void {
    const id = str(e['tool_id']);
    const use = id === undefined ? undefined : this.pending.get(id);
    if (id !== undefined) this.pending.delete(id);
    const error = isRec(e['error']) ? e['error'] : undefined;
    if (e['status'] !== 'error' || error?.['type'] !== 'policy_violation') return;
    if (this.out.permissionDenials.length >= MAX_DENIALS) return;
    const denial: PermissionDenial = { tool: use?.name ?? 'unknown' };
    if (use?.argument !== undefined) denial.detail = use.argument;
    this.out.permissionDenials.push(denial);
  }

  private result(e: Rec): void {
    this.closeText();
    this.out.hasResult = true;
    const status = str(e['status']);
    if (status !== undefined) this.out.resultStatus = status;
    const error = isRec(e['error']) ? e['error'] : undefined;
    const message = str(error?.['message']);
    if (message !== undefined) this.out.errorMessage = message;
    const stats = isRec(e['stats']) ? e['stats'] : undefined;
    if (stats) {
      this.out.usage = tokenUsage(stats);
      const models = isRec(stats['models']) ? stats['models'] : {};
      this.out.modelUsage = Object.entries(models).flatMap(([model, figures]) => (isRec(figures) ? [{ model, usage: tokenUsage(figures) }] : []));
    }
    const isError = status !== 'success';
    const answer = digestText(this.text.digest());
    const finished: AgentProgress = {
      kind: 'finished',
      isError,
      errorLabel: 'Error',
      reason: (isError ? (message ?? '') : answer).trim(),
    };
    if (answer !== '') finished.answer = answer;
    if (stats && typeof stats['duration_ms'] === 'number') finished.durationMs = stats['duration_ms'];
    this.emit(finished);
  }
}
