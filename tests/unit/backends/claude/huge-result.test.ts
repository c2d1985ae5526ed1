import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../../src/agent-result.js';
import { toAgentResult } from '../../../../src/backends/claude/claude-result.js';
import { OutputScanner } from '../../../../src/backends/claude/output-scanner.js';
import { analyzeResponse } from '../../../../src/core/response-analyzer.js';
import { DIGEST_HEAD_CHARS, DIGEST_TAIL_CHARS, digestText } from '../../../../src/core/text-digest.js';
import { cliResult, context, statusBlock } from '../../support/analysis.js';
import { sweepSize } from '../../../helpers/sweep-size.js';

// Test-runner output before the answer's last words, one JSON escape per line: about 0.9 MB, far
// beyond the digest's head and tail (9 MB under npm run fuzz).
const FILLER = 'PASS src/module.test.ts (12 tests, 0.4 s)\n'.repeat(sweepSize(20_000, 220_000));
const PIPE_CHUNK = 65_536;

/** Claude's stdout read as the pipe delivers it, in 64 KiB pieces. */
function resultOf(stdout: string, exitCode = 0): AgentResult {
  const scanner = new OutputScanner();
  for (let i = 0; i < stdout.length; i += PIPE_CHUNK) scanner.write(stdout.slice(i, i + PIPE_CHUNK));
  return toAgentResult({ end: 'exited', exitCode, durationMs: 1000, stderrTail: '', output: scanner.end() }, Date.parse('2026-11-22T12:00:00Z'), () => 'UTC');
}

/**
 * What the loop decides from a huge result, beside what a short answer with the same ending gives.
 * The summary and a failure's message come from the answer's first lines, which differ.
 */
function judged(ending: string, extra: Record<string, unknown> = {}, exitCode = 0) {
  const huge = resultOf(cliResult(FILLER + ending, extra), exitCode);
  const short = resultOf(cliResult(ending, extra), exitCode);
  const facts = (r: AgentResult) => {
    const a = analyzeResponse(r, context());
    return {
      outcome: r.outcome.kind,
      sessionId: r.sessionId,
      cost: r.cost,
      denials: r.permissionDenials,
      exitSignal: a.exitSignal,
      exitSignalExplicit: a.exitSignalExplicit,
      deniedCommands: a.deniedCommands,
    };
  };
  return { huge, hugeFacts: facts(huge), shortFacts: facts(short), summary: analyzeResponse(huge, context()).workSummary };
}

describe('a huge result in json mode', () => {
  it('a RALPH_STATUS block at the very end gives the same verdict, summary, cost and session as a short answer', () => {
    const { hugeFacts, shortFacts, summary } = judged(`All done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', RECOMMENDATION: 'Ship it' })}`);
    expect(hugeFacts.exitSignal).toBe(true);
    expect(summary).toBe('PASS src/module.test.ts (12 tests, 0.4 s)');
    expect(hugeFacts.sessionId).toBe('sess-1');
    expect(hugeFacts.cost).toEqual({ usd: 0.01, source: 'reported' });
    expect(hugeFacts).toEqual(shortFacts);
  });

  it('a permission denial after a huge answer is reported as after a short one', () => {
    const denial = { permission_denials: [{ tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'npm install left-pad' } }] };
    const { hugeFacts, shortFacts } = judged(statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' }), denial);
    expect(hugeFacts.denials).toEqual([{ tool: 'Bash', detail: 'npm install left-pad' }]);
    expect(hugeFacts).toEqual(shortFacts);
  });

  it('a huge error result is judged as a short one', () => {
    const { huge, hugeFacts, shortFacts } = judged('API Error: 500 Internal server error', { is_error: true, subtype: 'success' }, 1);
    expect(hugeFacts.outcome).toBe('failed');
    expect(hugeFacts).toEqual(shortFacts);
    expect(huge.outcome.kind === 'failed' && huge.outcome.message.endsWith('\nAPI Error: 500 Internal server error (exit code 1)')).toBe(true);
  });

  it('keeps a bounded digest: the first and last characters, the length and the distinct error lines', () => {
    const ending = `Error: one real failure\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
    const { huge } = judged(ending);
    const text = FILLER + ending;
    expect(huge.outputChars).toBeGreaterThan(FILLER.length);
    expect(FILLER.length).toBeGreaterThan(2 * (DIGEST_HEAD_CHARS + DIGEST_TAIL_CHARS));
    expect(huge.text.length).toBe(text.length);
    expect(huge.text.head).toBe(text.slice(0, DIGEST_HEAD_CHARS));
    expect(huge.text.tail).toBe(text.slice(-DIGEST_TAIL_CHARS));
    expect(digestText(huge.text).length).toBeLessThan(DIGEST_HEAD_CHARS + DIGEST_TAIL_CHARS + 100);
    expect(huge.text.errorLines).toEqual(['Error: one real failure']);
  });
});
