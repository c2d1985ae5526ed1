import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProgress, AgentResult } from '../../../../src/agent-result.js';
import type { CodexRun } from '../../../../src/backends/codex/classify-codex-call.js';
import { createCodexProgressReader } from '../../../../src/backends/codex/codex-progress.js';
import { toCodexResult, type CodexCallFacts } from '../../../../src/backends/codex/codex-result.js';
import { readCodexStdout } from '../../../../src/backends/codex/codex-stream.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-cli');
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as Record<string, { exit: number }>;

export const fixture = (name: string): string => readFileSync(join(DIR, name), 'utf8');

function stderrOf(name: string): string {
  try {
    return fixture(name.replace(/\.jsonl$/, '.stderr.txt'));
  } catch {
    return '';
  }
}

/** The usage-limit fixture's reset ("try again at Nov 27th, 2026 5:20 PM", printed in UTC), two hours ahead. */
export const FIXTURE_NOW = Date.parse('2026-11-27T15:20:00Z');

/** The result of a recorded run, as the backend would build it, and the progress it reported. */
export function replay(name: string, facts: CodexCallFacts = { model: 'gpt-5.1-codex' }): { result: AgentResult; progress: AgentProgress[] } {
  const progress: AgentProgress[] = [];
  const reader = createCodexProgressReader();
  const stream = readCodexStdout(fixture(name), (event) => progress.push(...reader.read(event)));
  const run: CodexRun = { end: 'exited', exitCode: manifest[name]?.exit ?? undefined, durationMs: 1, output: stream, stderrTail: stderrOf(name) };
  return { result: toCodexResult(run, facts, FIXTURE_NOW, () => 'UTC'), progress };
}
