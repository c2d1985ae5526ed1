import type { AgentProgress, AgentResult } from '../../../src/agent-result.js';
import { type ClaudeRun } from '../../../src/backends/claude/classify-claude-call.js';
import { createClaudeProgressReader } from '../../../src/backends/claude/claude-progress.js';
import { toAgentResult } from '../../../src/backends/claude/claude-result.js';
import { OutputScanner } from '../../../src/backends/claude/output-scanner.js';
import type { OpencodeRun } from '../../../src/backends/opencode/classify-opencode-call.js';
import { OpencodeEventReader } from '../../../src/backends/opencode/opencode-output.js';
import { toOpencodeResult } from '../../../src/backends/opencode/opencode-result.js';

/**
 * The result of a complete stdout held in memory (recorded fixtures, scripted replies), read by
 * the agent's own reader and classified as a run would be, its progress reported as read.
 */
export function readClaudeStdout(
  stdout: string,
  facts: Omit<ClaudeRun, 'output'>,
  nowMs: number,
  defaultZone: () => string,
  onProgress?: (event: AgentProgress) => void,
): AgentResult {
  const reader = createClaudeProgressReader();
  const scanner = new OutputScanner(onProgress ? (event) => reader.read(event).forEach(onProgress) : undefined);
  scanner.write(stdout);
  return toAgentResult({ ...facts, output: scanner.end() }, nowMs, defaultZone);
}

/** The same for OpenCode, whose cost estimate also needs the model. */
export function readOpencodeStdout(
  stdout: string,
  facts: Omit<OpencodeRun, 'output'>,
  model: string,
  nowMs: number,
  onProgress?: (event: AgentProgress) => void,
): AgentResult {
  const reader = new OpencodeEventReader(onProgress);
  reader.write(stdout);
  return toOpencodeResult({ ...facts, output: reader.end() }, model, nowMs);
}
