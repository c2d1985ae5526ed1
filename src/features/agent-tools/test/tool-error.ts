/**
 * A test tool that could not do its job. Both faces print it the same way: the
 * CLI as `{"error": {...}}` on stdout with exit 1 (2 for bad input), the MCP
 * server as a tool result with `isError: true` and the same JSON.
 */
export type ToolErrorCode =
  | 'bad_input'
  | 'path_outside_workspace'
  | 'unknown_workspace'
  | 'workspace_exists'
  | 'run_in_progress'
  | 'no_mock_responses'
  | 'mock_exhausted'
  | 'no_session'
  | 'session_corrupt'
  | 'unknown_snapshot'
  | 'too_many_files'
  | 'registry_busy'
  | 'unsafe_home'
  | 'gate_busy'
  | 'cancelled'
  | 'run_failed';

/** Codes that mean "the request itself was wrong" (CLI exit 2). */
const INPUT_CODES: ReadonlySet<ToolErrorCode> = new Set(['bad_input', 'path_outside_workspace']);

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly details: Record<string, unknown>;
  readonly hint: string | undefined;

  constructor(code: ToolErrorCode, message: string, details: Record<string, unknown> = {}, hint?: string) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
    this.hint = hint;
  }

  get isInputError(): boolean {
    return INPUT_CODES.has(this.code);
  }

  /** The JSON document both faces print. */
  toJson(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...(this.hint ? { hint: this.hint } : {}), ...this.details } };
  }
}

export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}

export function badInput(message: string, details: Record<string, unknown> = {}, hint?: string): ToolError {
  return new ToolError('bad_input', message, details, hint);
}
