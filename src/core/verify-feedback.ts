/**
 * Text the agent (and the user) reads about a verify run, in one fixed
 * Markdown layout. Pure string builders: the loop puts the bounce-back into the
 * next iteration's context and prints the escalation.
 */

/** The fields of a verify result these builders read (VerifyResult and the gate's summaries both fit). */
export interface VerifyOutcome {
  command: string;
  /** Exit code 0, not timed out, not cancelled. */
  passed: boolean;
  /** null when the shell was ended by a signal or never ran. */
  exitCode: number | null;
  /** Signal that ended the shell itself (SIGTERM, SIGKILL), if one did. */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Plain-words reason for a failure that an exit code alone does not explain. */
  explanation?: string;
  /** The time limit that applied (for "timed out after Ns"). */
  timeoutMs?: number;
}

export interface FeedbackOptions {
  /** Characters of output tail put into the prompt (default 2000). */
  maxTailChars?: number;
  /** The bounce-back's last line: what to do next (default: the loop's wording). */
  nextStep?: string;
  /** The escalation's line introducing the choices (default: the loop's `ralph --gate-action`). */
  gateActionPrompt?: string;
}

export const DEFAULT_FEEDBACK_TAIL_CHARS = 2000;

const NOTICE = /^\[\.\.\.truncated, showing last \d+ chars\.\.\.\]\n/;
// CSI sequences (colours, cursor moves) and OSC sequences (titles, links).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * Makes terminal output readable as text: colour codes removed, CRLF made LF,
 * and a line redrawn with `\r` (progress bars) reduced to what was last drawn.
 */
export function cleanTerminalText(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      for (let i = parts.length - 1; i >= 0; i -= 1) if ((parts[i] ?? '') !== '') return parts[i] ?? '';
      return '';
    })
    .join('\n');
}

function lastChars(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let tail = text.slice(-max);
  const code = tail.charCodeAt(0);
  if (code >= 0xdc00 && code <= 0xdfff) tail = tail.slice(1);
  return { text: tail, cut: true };
}

/** The last `max` characters of one stream, cleaned, with a notice when anything was cut. */
export function tailForPrompt(raw: string, max: number): string {
  const hadNotice = NOTICE.test(raw);
  const cleaned = cleanTerminalText(raw.replace(NOTICE, '')).replace(/\s+$/, '');
  const { text, cut } = lastChars(cleaned, max);
  if (!cut && !hadNotice) return text;
  return `[...truncated, showing last ${text.length} chars...]\n${text}`;
}

/** Splits the prompt budget between stderr and stdout; a stream that needs less leaves the rest to the other. */
function splitBudget(errLength: number, outLength: number, total: number): [number, number] {
  const half = Math.floor(total / 2);
  if (errLength <= half) return [errLength, total - errLength];
  if (outLength <= half) return [total - outLength, outLength];
  return [half, total - half];
}

export interface OutputSection {
  heading: string;
  text: string;
}

/**
 * What goes under the output headings. stderr is preferred; stdout is the
 * fallback. When both have text, both are shown within the same budget: `npm
 * test` puts the real failure on stdout (vitest, pytest) and only npm's own
 * "Lifecycle script failed" line on stderr, so stderr alone would hide the cause.
 */
export function selectOutput(result: VerifyOutcome, options: FeedbackOptions = {}, heading = 'Error Output'): OutputSection[] {
  const budget = options.maxTailChars ?? DEFAULT_FEEDBACK_TAIL_CHARS;
  const err = cleanTerminalText(result.stderr.replace(NOTICE, '')).trim();
  const out = cleanTerminalText(result.stdout.replace(NOTICE, '')).trim();
  if (err === '' && out === '') return [{ heading, text: 'No output captured' }];
  if (out === '') return [{ heading, text: tailForPrompt(result.stderr, budget) }];
  if (err === '') return [{ heading, text: tailForPrompt(result.stdout, budget) }];
  const [errBudget, outBudget] = splitBudget(err.length, out.length, budget);
  return [
    { heading, text: tailForPrompt(result.stderr, Math.max(1, errBudget)) },
    { heading: 'Standard Output', text: tailForPrompt(result.stdout, Math.max(1, outBudget)) },
  ];
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** A fenced block that stays one block whatever backticks the text itself contains. */
export function fence(text: string): string {
  const longest = longestBacktickRun(text);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}\n${text}\n${ticks}`;
}

/** An inline code span that survives backticks in the command. */
export function codeSpan(text: string): string {
  const single = text.replace(/\s*\n\s*/g, ' ');
  const longest = longestBacktickRun(single);
  const ticks = '`'.repeat(longest + 1);
  const pad = single.startsWith('`') || single.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${single}${pad}${ticks}`;
}

/** `2s`, `1.5s`, `300s`. */
export function formatSecondsShort(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))}s`;
}

/** The value after **Exit Code:** — a number, "timed out after Ns", or what ended the command. */
export function formatExitCode(result: VerifyOutcome): string {
  if (result.timedOut) return `timed out after ${formatSecondsShort(result.timeoutMs ?? result.durationMs)}`;
  if (result.exitCode !== null) return String(result.exitCode);
  if (result.signal) return `none (killed by ${result.signal})`;
  return 'none (the command did not run)';
}

function header(result: VerifyOutcome): string[] {
  return [`**Command:** ${codeSpan(result.command)}`];
}

function outputBlock(result: VerifyOutcome, options: FeedbackOptions, heading: string): string[] {
  const lines: string[] = [];
  for (const section of selectOutput(result, options, heading)) {
    lines.push(`### ${section.heading}`, fence(section.text));
  }
  return lines;
}

function explanationLine(result: VerifyOutcome): string[] {
  // The timeout is already said by the exit-code line.
  if (!result.explanation || result.timedOut) return [];
  return [`**Reason:** ${result.explanation}`];
}

/** The bounce-back while attempts remain (attempt < max): fed to the next iteration. */
export function formatBounceBack(result: VerifyOutcome, attempt: number, maxAttempts: number, options: FeedbackOptions = {}): string {
  return [
    `## Shell Verification FAILED (Attempt ${attempt}/${maxAttempts})`,
    '',
    ...header(result),
    `**Exit Code:** ${formatExitCode(result)}`,
    ...explanationLine(result),
    '',
    ...outputBlock(result, options, 'Error Output'),
    '',
    options.nextStep ?? `Fix the cause of this failure. Ralph runs ${codeSpan(result.command)} again after your next iteration; exit code 0 passes.`,
  ].join('\n');
}

/** The escalation once attempt = max: shown to the user when the attempts are used up. */
export function formatEscalation(result: VerifyOutcome, attempts: number, maxAttempts: number, options: FeedbackOptions = {}): string {
  return [
    '## Shell Verification FAILED - Maximum Attempts Reached',
    '',
    ...header(result),
    `**Attempts:** ${attempts}/${maxAttempts}`,
    `**Exit Code:** ${formatExitCode(result)}`,
    ...explanationLine(result),
    '',
    ...outputBlock(result, options, 'Recent Error Output'),
    '',
    options.gateActionPrompt ?? 'Use `gate_action` (`ralph --gate-action retry|skip|abort`):',
    '- **retry**: Reset attempt count and try again',
    '- **skip**: Bypass verification and continue',
    '- **abort**: Stop execution',
  ].join('\n');
}

/** One line for logs and the terminal after a pass. */
export function formatPassed(result: VerifyOutcome, attempts: number): string {
  const attempt = attempts > 1 ? ` on attempt ${attempts}` : '';
  return `Shell Verification PASSED${attempt}: ${result.command} (exit 0 in ${formatSecondsShort(Math.round(result.durationMs / 100) * 100)})`;
}
