import { isCostUnknown } from '../../core/cost-display.js';
import { isoTimestamp, localTimestamp } from '../../core/time-format.js';
import type { CallResult } from '../../core/iteration-verdict.js';
import type { IterationEnd } from '../../engine/loop-events.js';
import type { StatusDocument } from '../../core/status-model.js';
import type { CallBeat, ShownEvent } from './live-view.js';
import { toStatusDocument, type StatusContext } from './status-document.js';

/** The files of .ralph/ that show a running loop to watchers (the monitor, `ralph --status`, stats). */
export interface RunFiles {
  writeStatus(doc: StatusDocument): void;
  writeProgress(progress: Record<string, unknown>): void;
  appendMetrics(line: Record<string, unknown>): void;
  resetLiveLog(header: string): void;
  appendLiveLog(text: string): void;
  endLiveLog(): void;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// The monitor reads progress.json every 2 s: writing it every other beat costs a long call no more writes than it needs.
const PROGRESS_FILE_EVERY = 2;

function progressStatus(outcome: CallResult): string {
  if (outcome === 'success') return 'completed';
  if (outcome === 'timeout_productive') return 'timed_out_productive';
  if (outcome === 'timeout') return 'timed_out';
  return 'failed';
}

/** The metrics.jsonl line of an iteration. */
function iterationMetrics(e: IterationEnd, backend: string): Record<string, unknown> {
  const duration = e.endedAt - e.startedAt;
  const base = { type: 'iteration', timestamp: isoTimestamp(e.endedAt), loop: e.iteration, duration: duration / 1000, backend };
  if (!e.call || !e.verdict) return { ...base, success: true, calls: 0, duration_ms: duration, outcome: e.outcome };
  const { run, analysis, progress, gate } = e.call;
  const o = run;
  return {
    ...base,
    success: e.verdict.success,
    calls: 1,
    duration_ms: duration,
    outcome: e.outcome,
    result: e.verdict.label,
    exit_code: run.exitCode ?? null,
    is_error: o.reportedError === true,
    session_id: o.sessionId ?? null,
    input_tokens: o.usage?.inputTokens ?? 0,
    output_tokens: o.usage?.outputTokens ?? 0,
    cache_read_input_tokens: o.usage?.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: o.usage?.cacheCreationInputTokens ?? 0,
    cost_usd: o.cost?.usd ?? 0,
    cost_estimated: o.cost?.source === 'estimated',
    // Tokens without a price: cost_usd is 0 here only because nobody knows it.
    cost_unknown: isCostUnknown(o.cost, o.usage),
    num_turns: o.turns ?? 0,
    files_changed: progress?.filesChanged ?? 0,
    exit_signal: analysis ? analysis.exitSignal : null,
    verify: gate
      ? {
          passed: gate.passed,
          exit_code: gate.exitCode,
          timed_out: gate.timedOut,
          duration_ms: gate.durationMs,
          attempt: gate.attempt,
          max_attempts: gate.maxAttempts,
        }
      : null,
  };
}

/**
 * Projects the loop's events onto status.json, progress.json, metrics.jsonl and live.log:
 * what other processes read to follow the loop.
 */
export function createRunFilesProjector(files: RunFiles, ctx: StatusContext, now: () => number): (event: ShownEvent) => void {
  let beats = 0;
  let frame = 0;
  const callProgress = (p: Omit<CallBeat, 'type'>): void => {
    files.writeProgress({
      status: 'executing',
      indicator: SPINNER[frame % SPINNER.length],
      elapsed_seconds: Math.round((p.now - p.startedAt) / 1000),
      last_output: p.lastLine.slice(0, 80),
      timestamp: localTimestamp(p.now),
      loop: p.iteration,
      current_tool: p.currentTool,
      tool_uses: p.toolUses,
      started_at: new Date(p.startedAt).toISOString(),
    });
  };
  return (e) => {
    switch (e.type) {
      case 'status':
        files.writeStatus(toStatusDocument(e.run, ctx, now()));
        return;
      case 'call.running':
        files.resetLiveLog(`\n\n=== Loop #${e.iteration} - ${localTimestamp(e.startedAt)} ===`);
        beats = 0;
        frame = 0;
        callProgress({ iteration: e.iteration, startedAt: e.startedAt, now: now(), lastLine: '', currentTool: null, toolUses: 0 });
        return;
      case 'call.beat':
        beats += 1;
        if (beats % PROGRESS_FILE_EVERY !== 0) return;
        frame += 1;
        callProgress(e);
        return;
      case 'call.output':
        files.appendLiveLog(e.text);
        return;
      case 'call.end':
        files.endLiveLog();
        return;
      case 'iteration.end':
        if (e.call && e.outcome !== 'dry_run') {
          const duration = e.endedAt - e.startedAt;
          files.writeProgress({
            status: progressStatus(e.outcome),
            indicator: '✓',
            elapsed_seconds: Math.round(duration / 1000),
            last_output: (e.call.analysis?.workSummary ?? '').slice(0, 80),
            timestamp: isoTimestamp(e.endedAt),
            loop: e.iteration,
            current_tool: null,
            tool_uses: e.call.run.toolUses,
            started_at: isoTimestamp(e.startedAt),
          });
        }
        files.appendMetrics(iterationMetrics(e, ctx.backend));
        return;
      case 'review.end':
        // The reviewer's --live output is written out like a call's.
        files.endLiveLog();
        // A review is a call of its own: ralph-stats counts it apart from the iterations.
        files.appendMetrics({
          type: 'review',
          timestamp: isoTimestamp(now()),
          loop: e.iteration,
          review: e.review,
          verdict: e.verdict,
          decision: e.decision,
          findings: e.findings.length,
          backend: e.backend,
          duration_ms: e.run.durationMs,
          cost_usd: e.run.cost?.usd ?? 0,
          cost_estimated: e.run.cost?.source === 'estimated',
          input_tokens: e.run.usage?.inputTokens ?? 0,
          output_tokens: e.run.usage?.outputTokens ?? 0,
        });
        return;
      case 'loop.exit':
        files.appendMetrics({
          type: 'run',
          timestamp: isoTimestamp(e.endedAt),
          started_at: isoTimestamp(e.startedAt),
          exit_reason: e.reason,
          exit_code: e.exitCode,
          loops: e.iterations,
          duration: (e.endedAt - e.startedAt) / 1000,
          cost_usd: e.totals.cost_usd,
          cost_estimated: e.totals.cost_estimated,
          backend: ctx.backend,
        });
        return;
      default:
        return;
    }
  };
}
