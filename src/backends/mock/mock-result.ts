import type { AgentResult } from '../../agent-result.js';
import { digestOf } from '../../core/text-digest.js';
import { emptyClaudeOutput, type ClaudeOutput } from '../claude/claude-output.js';
import { toAgentResult } from '../claude/claude-result.js';
import type { MockResponse } from './mock-script.js';

/** How the scripted call ended, besides its reply. */
export interface MockCallFacts {
  exitCode: number;
  durationMs: number;
  details: Record<string, unknown>;
}

/** A reply scripted as the Claude CLI's own output (JSON, or marked raw) rather than as the agent's answer. */
export function wantsClaudeReading(response: MockResponse): boolean {
  const trimmed = response.output.trimStart();
  return response.raw || trimmed.startsWith('{') || trimmed.startsWith('[');
}

/**
 * The result of a scripted answer. A mock script stands for Claude Code: its answer is what
 * Claude's result object would have held (the text, the script's cost and tokens, one turn),
 * and a non-zero exit code makes it an error Claude reported, judged by the same rules — so a
 * script can play a usage limit, an overloaded API or a broken session in plain words.
 */
export function mockResult(response: MockResponse, sessionId: string, facts: MockCallFacts, nowMs: number, defaultZone: () => string): AgentResult {
  const output: ClaudeOutput = {
    ...emptyClaudeOutput(),
    format: 'json',
    chars: response.output.length,
    hasResult: true,
    isError: response.exitCode !== 0,
    subtype: 'success',
    sessionId,
    text: digestOf(response.output),
    usage: { inputTokens: response.inputTokens, outputTokens: response.outputTokens, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    costUsd: response.costUsd,
    numTurns: 1,
    durationMs: facts.durationMs,
  };
  const result = toAgentResult(
    { end: 'exited', exitCode: facts.exitCode, durationMs: facts.durationMs, output, stderrTail: '', details: facts.details },
    nowMs,
    defaultZone,
  );
  if (response.costEstimated && result.cost) result.cost = { ...result.cost, source: 'estimated' };
  return result;
}
