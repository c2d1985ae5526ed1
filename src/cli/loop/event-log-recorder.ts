import { isoTimestamp } from '../../core/time-format.js';
import type { LoopEvent } from '../../engine/loop-events.js';
import type { EventLog } from '../../state/event-log.js';

type EventRecord = [event: string, data: Record<string, unknown>];

/** The session.jsonl record of an event, in the field names readers of that file rely on; undefined for events not recorded. */
export function toEventRecord(e: LoopEvent): EventRecord | undefined {
  switch (e.type) {
    case 'loop.start':
      return [
        e.type,
        { project: e.project, backend: e.backend, max_loops: e.maxLoops, dry_run: e.dryRun, verify_command: e.verifyCommand, task: e.task, pid: e.pid },
      ];
    case 'iteration.start':
      return [e.type, { iteration: e.iteration }];
    case 'agent.result': {
      const { run } = e;
      return [
        e.type,
        {
          iteration: e.iteration,
          end: run.end,
          outcome: e.outcome,
          exit_code: run.exitCode ?? null,
          is_error: run.reportedError ?? null,
          subtype: run.resultKind ?? null,
          session_id: run.sessionId ?? null,
          cost_usd: run.cost?.usd ?? 0,
          input_tokens: run.usage?.inputTokens ?? 0,
          output_tokens: run.usage?.outputTokens ?? 0,
          num_turns: run.turns ?? 0,
          duration_ms: run.durationMs,
          format: run.format,
          ...(run.details ?? {}),
        },
      ];
    }
    case 'analysis': {
      const a = e.analysis;
      return [
        e.type,
        {
          iteration: e.iteration,
          exit_signal: a.exitSignal,
          exit_signal_explicit: a.exitSignalExplicit,
          status: a.status ?? null,
          work_type: a.workType ?? null,
          has_progress: a.hasProgress,
          files_changed: e.progress.filesChanged,
          changed_files: e.progress.changedFiles,
          summary: a.workSummary,
          is_stuck: a.isStuck,
          denied_commands: a.deniedCommands,
        },
      ];
    }
    case 'verify.result': {
      const r = e.result;
      return [
        e.type,
        {
          iteration: e.iteration,
          command: e.command,
          attempt: e.attempt,
          max_attempts: e.maxAttempts,
          passed: r.passed,
          exit_code: r.exitCode,
          timed_out: r.timedOut,
          duration_ms: r.durationMs,
          explanation: r.explanation ?? null,
        },
      ];
    }
    case 'checkpoint.created':
    case 'checkpoint.dropped':
      return [e.type, { iteration: e.iteration, id: e.id }];
    case 'checkpoint.restored':
      return [
        e.type,
        {
          iteration: e.iteration,
          id: e.id,
          attempt_ref: e.attemptRef,
          cause: e.cause,
          reverted: e.reverted,
          refs_moved: e.refsMoved,
          refs_left: e.refsLeft,
          notes: e.notes,
        },
      ];
    case 'circuit.transition':
      return [e.type, { iteration: e.iteration, from: e.transition.from, to: e.transition.to, reason: e.transition.reason }];
    case 'wait.start':
      return [e.type, { iteration: e.iteration, reason: e.wait.reason, until: isoTimestamp(e.wait.until), message: e.wait.message }];
    case 'wait.end':
      return [e.type, { iteration: e.iteration, reason: e.wait.reason, end: e.end }];
    case 'iteration.end': {
      const duration = e.endedAt - e.startedAt;
      if (!e.verdict) return [e.type, { iteration: e.iteration, outcome: e.outcome, duration_ms: duration }];
      return [e.type, { iteration: e.iteration, outcome: e.outcome, result: e.verdict.label, success: e.verdict.success, duration_ms: duration }];
    }
    case 'sandbox.refused':
      return [e.type, { iteration: e.iteration, kind: e.refusal.kind, detail: e.refusal.detail }];
    case 'loop.exit':
      return [
        e.type,
        { reason: e.reason, exit_code: e.exitCode, iterations: e.iterations, elapsed_secs: (e.endedAt - e.startedAt) / 1000, message: e.message },
      ];
    case 'loop.crash':
      return ['loop.exit', { reason: 'error', exit_code: 1, iterations: e.iterations, message: e.message }];
    case 'review.start':
      return [e.type, { iteration: e.iteration, review: e.review, backend: e.backend, completion: e.completion }];
    case 'review.end':
      return [
        e.type,
        {
          iteration: e.iteration,
          review: e.review,
          verdict: e.verdict,
          given: e.given,
          decision: e.decision,
          findings: [...e.findings],
          refused: [...e.refused],
          cost_usd: e.run.cost?.usd ?? 0,
          input_tokens: e.run.usage?.inputTokens ?? 0,
          output_tokens: e.run.usage?.outputTokens ?? 0,
          duration_ms: e.run.durationMs,
        },
      ];
    default:
      return undefined;
  }
}

/** Records the loop's events in .ralph/logs/session.jsonl. */
export function createEventLogRecorder(log: EventLog): (event: LoopEvent) => void {
  return (e) => {
    const record = toEventRecord(e);
    if (record) log.append(...record);
  };
}
