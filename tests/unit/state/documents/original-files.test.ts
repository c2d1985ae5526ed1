import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDocument, type DocumentSpec } from '../../../../src/state/document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from '../../../../src/state/documents/circuit.js';
import { EXIT_SIGNALS } from '../../../../src/state/documents/exit-signals.js';
import { PROGRESS } from '../../../../src/state/documents/progress.js';
import { RESPONSE_ANALYSIS } from '../../../../src/state/documents/response-analysis.js';
import { RALPH_SESSION, RALPH_SESSION_HISTORY } from '../../../../src/state/documents/sessions.js';
import { STATUS } from '../../../../src/state/documents/status.js';
import { ralphPaths, type RalphPaths } from '../../../../src/state/paths.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/**
 * Files as the original bash Ralph wrote them: a project that moves to this
 * Ralph keeps its state. Each loads without a warning, its fields as written,
 * the fields it lacks filled with neutral values.
 */
function load<T>(doc: DocumentSpec<T, RalphPaths>, content: unknown): { value: T; warnings: string[] } {
  const paths = ralphPaths(tempDir('ralph-original-'));
  mkdirSync(paths.dir, { recursive: true });
  writeFileSync(doc.path(paths), JSON.stringify(content, null, 4));
  const warnings: string[] = [];
  return { value: loadDocument(paths, doc, (m) => warnings.push(m), 0), warnings };
}

describe('files written by the original Ralph', () => {
  it('status.json', () => {
    const original = {
      timestamp: '2026-01-15T12:00:00+00:00',
      loop_count: 4,
      calls_made_this_hour: 4,
      max_calls_per_hour: 100,
      last_action: 'executing',
      status: 'running',
      exit_reason: '',
      next_reset: '13:00:00',
    };
    const { value, warnings } = load(STATUS, original);
    expect(warnings).toEqual([]);
    expect(value).toMatchObject(original);
    expect(value).toMatchObject({ pid: null, circuit: null, last_iteration: null, verify: null, waiting: null, sandbox: { provider: 'none' } });
  });

  it('.circuit_breaker_state and its history', () => {
    const state = {
      state: 'HALF_OPEN',
      last_change: '2026-01-15T12:00:00+00:00',
      consecutive_no_progress: 2,
      consecutive_same_error: 0,
      last_progress_loop: 3,
      total_opens: 0,
      reason: 'Monitoring: 2 loops without progress',
      current_loop: 5,
    };
    const read = load(CIRCUIT_STATE, state);
    expect(read.warnings).toEqual([]);
    expect(read.value).toEqual({ ...state, consecutive_failures: 0, consecutive_permission_denials: 0 });
    const history = [
      { timestamp: '2026-01-15T12:00:00+00:00', loop: 5, from_state: 'CLOSED', to_state: 'HALF_OPEN', reason: 'Monitoring: 2 loops without progress' },
    ];
    expect(load(CIRCUIT_HISTORY, history)).toEqual({ value: history, warnings: [] });
  });

  it('.exit_signals', () => {
    const original = { test_only_loops: [2], done_signals: [3, 4], completion_indicators: [4] };
    expect(load(EXIT_SIGNALS, original)).toEqual({ value: { ...original, recent: [], unaccepted_claims: 0 }, warnings: [] });
  });

  it('.ralph_session and .ralph_session_history', () => {
    const session = { session_id: 'ralph-1736942400-abc123', created_at: '2026-01-15T12:00:00+00:00', last_used: '2026-01-15T12:30:00+00:00' };
    expect(load(RALPH_SESSION, session)).toEqual({ value: { ...session, reset_at: '', reset_reason: '' }, warnings: [] });
    const history = [{ timestamp: '2026-01-15T12:00:00+00:00', from_state: 'active', to_state: 'reset', reason: 'circuit_breaker_open', loop_number: 7 }];
    expect(load(RALPH_SESSION_HISTORY, history)).toEqual({ value: history, warnings: [] });
  });

  it('progress.json', () => {
    const original = { status: 'executing', indicator: '⠋', elapsed_seconds: 20, last_output: 'Running tests', timestamp: '2026-01-15 12:00:20' };
    expect(load(PROGRESS, original)).toEqual({ value: { ...original, loop: null, current_tool: null, tool_uses: 0, started_at: null }, warnings: [] });
  });

  it('.response_analysis keeps the analysis as written', () => {
    const original = {
      loop_number: 3,
      timestamp: '2026-01-15T12:00:00+00:00',
      output_file: 'logs/claude_output_3.log',
      output_format: 'json',
      analysis: { has_completion_signal: false, confidence_score: 40, work_summary: 'Added tests' },
    };
    expect(load(RESPONSE_ANALYSIS, original)).toEqual({ value: original, warnings: [] });
  });
});
