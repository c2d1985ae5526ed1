import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProgress } from '../../../../src/agent-result.js';
import type { GeminiRun } from '../../../../src/backends/gemini/classify-gemini-call.js';
import { GeminiStreamReader, type GeminiOutput } from '../../../../src/backends/gemini/gemini-stream.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'gemini-cli');
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { exitCodes: Record<string, number> };

export function geminiFixture(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

/** What a fixture's stdout reads as, fed in pieces of `chunk` characters. */
export function readGeminiOutput(stdout: string, chunk = stdout.length || 1, onProgress?: (e: AgentProgress) => void): GeminiOutput {
  const reader = new GeminiStreamReader(onProgress);
  for (let i = 0; i < stdout.length; i += chunk) reader.write(stdout.slice(i, i + chunk));
  return reader.end();
}

/** A recorded call as the backend saw it: stdout, its stderr file when there is one, the exit code Gemini gave. */
export function recordedRun(name: string): GeminiRun {
  const stderrName = name.replace(/\.(jsonl|json)$/, '.stderr.txt');
  let stderr = '';
  try {
    stderr = geminiFixture(stderrName);
  } catch {
    stderr = '';
  }
  const exitCode = manifest.exitCodes[name];
  if (exitCode === undefined) throw new Error(`no exit code recorded for ${name}`);
  return { end: 'exited', exitCode, durationMs: 1000, output: readGeminiOutput(geminiFixture(name)), stderrTail: stderr };
}
