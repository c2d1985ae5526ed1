import type { AgentResult } from '../../agent-result.js';
import { digestOf, digestText } from '../../core/text-digest.js';
import type { MockResponse } from './mock-script.js';
import { judgeScriptedFailure } from './scripted-failure.js';

/** How the scripted call ended, besides its reply. */
export interface MockCallFacts {
  exitCode: number;
  durationMs: number;
  details: Record<string, unknown>;
}

/**
 * The result of a scripted answer, built as it is: the reply is the agent's answer (one turn,
 * the script's tokens and cost), and a non-zero exit code makes it a failure the agent reported,
 * judged from its words, so a script can play a usage limit, an overloaded API or a broken
 * session in plain words.
 */
export function mockResult(response: MockResponse, sessionId: string, facts: MockCallFacts, nowMs: number, defaultZone: () => string): AgentResult {
  const text = digestOf(response.output);
  const failed = response.exitCode !== 0;
  return {
    outcome: failed ? judgeScriptedFailure(digestText(text), facts.exitCode, nowMs, defaultZone) : { kind: 'success' },
    end: 'exited',
    text,
    structured: true,
    complete: true,
    format: 'json',
    errors: [],
    toolUses: 0,
    permissionDenials: [],
    warnings: [],
    outputChars: response.output.length,
    exitCode: facts.exitCode,
    durationMs: facts.durationMs,
    stderrTail: '',
    reportedError: failed,
    resultKind: 'success',
    usage: { inputTokens: response.inputTokens, outputTokens: response.outputTokens, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    cost: { usd: response.costUsd, source: response.costEstimated ? 'estimated' : 'reported' },
    turns: 1,
    sessionId,
    details: facts.details,
  };
}
