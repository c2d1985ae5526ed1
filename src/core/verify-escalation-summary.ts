import { clipText } from './message-bounds.js';
import { codeSpan, cleanTerminalText, type VerifyOutcome } from './verify-feedback.js';
import { tapFailures } from './tap-failures.js';
import { describeVerifyFailure } from './verify-why-line.js';

/**
 * What the person at the terminal reads when the verify attempts are used up:
 * a few plain lines — the command, the attempts, how the last run failed and
 * its last lines of output — and the choices. The Markdown the agent reads is
 * for the agent, not for this moment.
 */
export interface EscalationSummaryInput {
  result: VerifyOutcome;
  attempts: number;
  maxAttempts: number;
  /** Someone can answer at this terminal; otherwise the configured policy applies. */
  tty: boolean;
}

const OUTPUT_LINES = 5;

function lastOutputLines(result: VerifyOutcome): string[] {
  const text = cleanTerminalText(`${result.stdout}\n${result.stderr}`);
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !l.startsWith('[...truncated'))
    .slice(-OUTPUT_LINES)
    .map((l) => clipText(l, 119));
}

/** The failing tests of a TAP run with their assertion and place: what the footer of its output does not say. */
function failingTestLines(result: VerifyOutcome): string[] {
  const failed = tapFailures(`${result.stdout}\n${result.stderr}`);
  const shown = failed
    .slice(0, OUTPUT_LINES)
    .flatMap((f) => [clipText(f.line, 119), ...(f.error ? [clipText(`  ${f.error}`, 119)] : []), ...(f.location ? [clipText(`  at ${f.location}`, 119)] : [])]);
  return failed.length > OUTPUT_LINES ? [...shown, `… and ${failed.length - OUTPUT_LINES} more failing tests`] : shown;
}

export function formatEscalationSummary(input: EscalationSummaryInput): string {
  const { result, attempts, maxAttempts, tty } = input;
  const failing = failingTestLines(result);
  const lines = [
    '✋ Verify attempts used up: Ralph needs a decision.',
    `   Command:   ${codeSpan(result.command)}`,
    `   Attempts:  ${attempts}/${maxAttempts}, all failed`,
    `   Last run:  ${describeVerifyFailure(result)}`,
  ];
  if (failing.length > 0) lines.push('   Failing tests:', ...failing.map((l) => `     ${l}`));
  else {
    const output = lastOutputLines(result);
    if (output.length > 0) lines.push('   Last lines of its output:', ...output.map((l) => `     ${l}`));
  }
  lines.push(
    '',
    '   retry  reset the attempts; the agent tries again with the failure as feedback',
    '   skip   go on without the verify gate',
    "   abort  stop here; fix the cause and run 'ralph' again",
    tty
      ? '   Answer below, or from another terminal: ralph --gate-action retry|skip|abort'
      : '   Nobody is at this terminal to answer; answer for a later run with: ralph --gate-action retry|skip|abort',
  );
  return lines.join('\n');
}
