import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildVerifyEnv } from '../../../core/verify-env.js';
import type { BackendName } from '../../../backends/registry.js';
import type { StatusDocument } from '../../../core/status-model.js';
import { ExitCode } from '../../../errors.js';
import { ralphPaths } from '../../../state/paths.js';
import { runningLoopPid } from '../../../state/running-loop.js';
import type { EventRecord } from '../../observe/event-log-inspect.js';
import type { StoredRun } from './registry.js';
import { runRalphProcess, type RalphProcessResult } from './run-process.js';
import { readSession, readStatus, resetLoopState, writeTask } from './run-state.js';
import { MOCK_SCRIPT, writeMockResponses } from './test-mock-backend.js';
import { ToolError } from './tool-error.js';
import type { ToolContext } from './tool-home.js';
import { requireWorkspace, sessionFile, touchWorkspace } from './workspace.js';

/**
 * test_run: the real `ralph` in the workspace, mock backend by
 * default. The task goes into PROMPT.md (see run-state.ts), the limits become
 * `--max-loops` and a wall-clock kill after `max_runtime_secs`, `--pause 0`
 * keeps runs fast. The child gets a clean environment: the verify gate's
 * allowlist (PATH, HOME, locale, … — no tokens or keys, and none of Ralph's
 * own settings from the caller's shell, so `config` from test_setup is what
 * applies) plus `env`. A real backend therefore needs its credentials passed
 * explicitly in `env` unless it logs in
 * through files under HOME, as Claude Code does.
 *
 * Words: `termination_reason` is Ralph's exit reason (status.json
 * `exit_reason`, the `loop.exit` event). A run stopped by `max_runtime_secs`
 * reports `max_runtime` and exit code 7 — what `ralph --max-runtime` itself
 * reports — with the raw process status in `process_exit_code`.
 */

export interface RunInput {
  workspace_id: string;
  task: string;
  backend?: BackendName | undefined;
  max_iterations?: number | undefined;
  max_runtime_secs?: number | undefined;
  env?: Record<string, string> | undefined;
  mock_responses?: Array<Record<string, unknown>> | undefined;
}

export interface RunResult {
  exit_code: number | null;
  termination_reason: string;
  iterations: number;
  elapsed_secs: number;
  /** The agent the run used, and what it spent (an estimate when the agent reported no cost). */
  backend: string;
  usage: { cost_usd: number; cost_estimated: boolean; input_tokens: number; output_tokens: number; calls: number };
  session_file: string;
  events_count: number;
  stdout_tail: string;
  stderr_tail: string;
  mock_responses?: { consumed: number; remaining: number; total: number };
  process_exit_code?: number | null;
  killed_after_secs?: number;
  warnings?: string[];
  notes?: string[];
}

/** The run's totals from its status.json (zeros when the run never wrote one). */
function runUsage(status: StatusDocument | undefined): RunResult['usage'] {
  const t = status?.totals;
  return {
    cost_usd: t?.cost_usd ?? 0,
    cost_estimated: t?.cost_estimated ?? false,
    input_tokens: t?.input_tokens ?? 0,
    output_tokens: t?.output_tokens ?? 0,
    calls: t?.calls ?? 0,
  };
}

export const DEFAULT_MAX_ITERATIONS = 5;
export const DEFAULT_MAX_RUNTIME_SECS = 300;

function lastData(records: readonly EventRecord[], event: string): Record<string, unknown> | undefined {
  return records.findLast((r) => r.event === event)?.data;
}

function mockCounts(records: readonly EventRecord[]): { consumed: number; total: number; exhausted: boolean } | undefined {
  const data = records.filter((r) => r.event === 'agent.result' && typeof r.data['mock_total'] === 'number').at(-1)?.data;
  if (!data) return undefined;
  const consumed = typeof data['mock_consumed'] === 'number' ? data['mock_consumed'] : 0;
  return { consumed, total: data['mock_total'] as number, exhausted: data['mock_exhausted'] === true };
}

function countIterations(records: readonly EventRecord[], statusLoops: number | undefined): number {
  const exit = lastData(records, 'loop.exit');
  if (typeof exit?.['iterations'] === 'number') return exit['iterations'];
  if (statusLoops !== undefined) return statusLoops;
  return records.filter((r) => r.event === 'iteration.start').length;
}

function terminationReason(proc: RalphProcessResult, records: readonly EventRecord[], statusReason: string | undefined): string {
  if (proc.timedOut) return 'max_runtime';
  const exit = lastData(records, 'loop.exit');
  if (typeof exit?.['reason'] === 'string' && exit['reason'] !== '') return exit['reason'];
  if (statusReason) return statusReason;
  // Ralph stopped before its loop began (bad configuration: exit 2; see stderr_tail).
  return 'not_started';
}

function childEnv(ctx: ToolContext, extra: Record<string, string>): Record<string, string> {
  return { ...buildVerifyEnv(ctx.env), NO_COLOR: '1', ...extra };
}

function prepare(input: RunInput, workspace: string, backend: string): { warnings: string[]; notes: string[] } {
  const paths = ralphPaths(workspace);
  const pid = runningLoopPid(paths);
  if (pid !== undefined)
    throw new ToolError('run_in_progress', `a Ralph loop is already running in workspace ${input.workspace_id} (PID ${pid})`, { pid }, 'Wait for it to end.');
  const notes = input.mock_responses ? writeMockResponses(workspace, input.mock_responses) : [];
  if (backend === 'mock' && !existsSync(join(workspace, MOCK_SCRIPT))) {
    throw new ToolError(
      'no_mock_responses',
      `backend "mock" needs scripted responses and workspace ${input.workspace_id} has none`,
      {},
      'Call test_mock_backend first, or pass mock_responses to test_run.',
    );
  }
  const warnings: string[] = [];
  const reset = resetLoopState(workspace);
  if (reset) warnings.push(reset);
  writeTask(workspace, input.task);
  return { warnings, notes };
}

export async function testRun(input: RunInput, ctx: ToolContext): Promise<RunResult> {
  const { entry } = requireWorkspace(ctx, input.workspace_id);
  const workspace = entry.path;
  const backend = input.backend ?? 'mock';
  const maxIterations = input.max_iterations ?? DEFAULT_MAX_ITERATIONS;
  const maxRuntimeSecs = input.max_runtime_secs ?? DEFAULT_MAX_RUNTIME_SECS;
  const { warnings, notes } = prepare(input, workspace, backend);
  const args = ['--backend', backend, '--max-loops', String(maxIterations), '--pause', '0', ...(backend === 'mock' ? ['--mock-script', MOCK_SCRIPT] : [])];

  const startedAt = ctx.now();
  ctx.progress?.(`ralph ${args.join(' ')} in ${workspace}`);
  const proc = await runRalphProcess({
    cwd: workspace,
    args,
    env: childEnv(ctx, input.env ?? {}),
    timeoutMs: maxRuntimeSecs * 1000,
    signal: ctx.signal,
    onOutput: (chunk) => {
      for (const m of chunk.matchAll(/Starting Loop #(\d+)/g)) ctx.progress?.(`iteration ${m[1] ?? '?'} of at most ${maxIterations}`);
    },
  });
  if (proc.spawnError !== undefined) throw new ToolError('run_failed', `could not start ralph: ${proc.spawnError}`);

  const session = sessionFile(workspace);
  const read = readSession(session);
  if (read.error) warnings.push(`session.jsonl has a damaged line (${read.error}); test_inspect reports it`);
  const status = readStatus(workspace);
  const elapsedSecs = Math.round(proc.elapsedMs) / 1000;
  const result: RunResult = {
    exit_code: proc.timedOut ? ExitCode.LimitReached : proc.exitCode,
    termination_reason: terminationReason(proc, read.records, status?.exit_reason),
    iterations: countIterations(read.records, status?.loop_count),
    elapsed_secs: elapsedSecs,
    backend,
    usage: runUsage(status),
    session_file: session,
    events_count: read.records.length,
    stdout_tail: proc.stdoutTail,
    stderr_tail: proc.stderrTail,
  };
  const mock = backend === 'mock' ? mockCounts(read.records) : undefined;
  if (backend === 'mock') {
    const consumed = mock?.consumed ?? 0;
    const total = mock?.total ?? 0;
    result.mock_responses = { consumed, remaining: Math.max(0, total - consumed), total };
  }
  if (proc.timedOut) {
    result.process_exit_code = proc.exitCode;
    result.killed_after_secs = maxRuntimeSecs;
    warnings.push(`ralph was stopped after max_runtime_secs=${maxRuntimeSecs}; the session recorded until then is kept`);
  }
  if (warnings.length > 0) result.warnings = warnings;
  if (notes.length > 0) result.notes = notes;

  const stored: StoredRun = {
    exit_code: result.exit_code,
    termination_reason: result.termination_reason,
    iterations: result.iterations,
    elapsed_secs: result.elapsed_secs,
    backend,
    session_file: session,
    events_count: result.events_count,
    started_at: startedAt,
  };
  await touchWorkspace(ctx, input.workspace_id, (e) => {
    e.last_run = stored;
  });

  if (proc.cancelled) throw new ToolError('cancelled', 'test_run was cancelled; ralph was stopped and its partial session kept', { run: result });
  if (mock?.exhausted) {
    const message =
      typeof lastData(read.records, 'loop.exit')?.['message'] === 'string'
        ? String(lastData(read.records, 'loop.exit')?.['message'])
        : 'mock responses exhausted';
    throw new ToolError(
      'mock_exhausted',
      `${message}; ${mock.consumed} of ${mock.total} mock responses were consumed`,
      { consumed: mock.consumed, total: mock.total, run: result },
      'Give the mock backend more responses (test_mock_backend) or lower max_iterations. The run is recorded: test_assert and test_inspect work on it.',
    );
  }
  return result;
}
