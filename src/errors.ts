/**
 * Exit codes are part of Ralph's contract with scripts and CI; every
 * stop maps to exactly one of them.
 */
export const ExitCode = {
  Completed: 0,
  RuntimeError: 1,
  Usage: 2,
  CircuitOpen: 3,
  PermissionDenied: 4,
  UsageLimit: 5,
  VerifyAborted: 6,
  LimitReached: 7,
  Sigint: 130,
  Sigterm: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that knows how Ralph should exit and what the user should do next. */
export class RalphError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, exitCode: number = ExitCode.RuntimeError, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RalphError';
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad flag, bad config value, bad arguments: exit code 2. */
export class UsageError extends RalphError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.Usage, hint);
    this.name = 'UsageError';
  }
}

/** The current directory is not a Ralph project (or is missing required files). */
export class NotAProjectError extends RalphError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.RuntimeError, hint);
    this.name = 'NotAProjectError';
  }
}

export function isRalphError(value: unknown): value is RalphError {
  return value instanceof RalphError;
}

export function errorMessage(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}
