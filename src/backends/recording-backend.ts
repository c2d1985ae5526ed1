import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentResult } from '../agent-result.js';
import { isRecord } from '../core/guards.js';
import type { AgentBackend, AgentRequest } from '../ports.js';
import { writeFileAtomic } from '../state/json-file.js';

/** One recorded call in a fixture folder's manifest.json (the layout of tests/fixtures/claude-cli). */
export interface RecordedCase {
  file: string;
  stderr_file: string | null;
  exit_code: number | null;
  about: string;
  scenario: null;
  claude_command: string;
  wrapper: null;
  env_overrides: Record<string, string>;
  env_unset: string[];
  resumed_session_from: string | null;
  wall_ms: number;
  requests_by_kind: Record<string, number>;
  checks_failed: string[];
}

export interface RecordingOptions {
  /** The fixture folder: gets one output file per call and its manifest.json. */
  dir: string;
  /** The case name of each call: `<name>` for the first, `<name>-2`, … after it. */
  name: string;
  /** What the cases show, for the manifest. */
  about: string;
}

const EXTENSIONS: Record<string, string> = { 'stream-json': 'jsonl', json: 'json', 'json-array': 'json', text: 'txt', empty: 'txt' };

function readCases(manifestPath: string): unknown[] {
  if (!existsSync(manifestPath)) return [];
  const parsed: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return isRecord(parsed) && Array.isArray(parsed['cases']) ? parsed['cases'] : [];
}

/**
 * Wraps any backend and keeps each call as a replayable fixture: the agent's raw stdout as it
 * arrived, its stderr, and the request facts in manifest.json — the files the fake `claude` of
 * the integration tests replays. A new CLI version is captured by running calls through it.
 */
export class RecordingBackend implements AgentBackend {
  readonly name: string;
  readonly displayName: string;
  private calls = 0;

  constructor(
    private readonly inner: AgentBackend,
    private readonly options: RecordingOptions,
  ) {
    this.name = inner.name;
    this.displayName = inner.displayName;
  }

  describe(request: AgentRequest): string {
    return this.inner.describe(request);
  }

  describeOutput(request: AgentRequest): string {
    return this.inner.describeOutput(request);
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const chunks: string[] = [];
    const onOutput = request.onOutput;
    const result = await this.inner.run(
      {
        ...request,
        onOutput: (text) => {
          chunks.push(text);
          onOutput?.(text);
        },
      },
      signal,
    );
    this.calls += 1;
    this.record(request, result, chunks.join(''));
    return result;
  }

  private record(request: AgentRequest, result: AgentResult, stdout: string): void {
    const { dir, name, about } = this.options;
    mkdirSync(dir, { recursive: true });
    const base = this.calls === 1 ? name : `${name}-${this.calls}`;
    const file = `${base}.${EXTENSIONS[result.format] ?? 'txt'}`;
    writeFileAtomic(join(dir, file), stdout);
    const stderrFile = result.stderrTail.trim() === '' ? null : `${base}.stderr.txt`;
    if (stderrFile !== null) writeFileAtomic(join(dir, stderrFile), result.stderrTail);
    const entry: RecordedCase = {
      file,
      stderr_file: stderrFile,
      exit_code: result.exitCode ?? null,
      about,
      scenario: null,
      claude_command: this.inner.describe(request),
      wrapper: null,
      env_overrides: {},
      env_unset: [],
      resumed_session_from: request.resumeSessionId ?? null,
      wall_ms: result.durationMs,
      requests_by_kind: {},
      checks_failed: [],
    };
    const manifestPath = join(dir, 'manifest.json');
    const cases = readCases(manifestPath).filter((c) => !isRecord(c) || c['file'] !== file);
    writeFileAtomic(manifestPath, `${JSON.stringify({ cases: [...cases, entry] }, null, 2)}\n`);
  }
}
