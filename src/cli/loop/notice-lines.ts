import { agentDisplayName } from '../../backends/registry.js';
import { formatDuration } from '../../core/time-format.js';
import { describeTransientCause } from '../../core/transient-api-error.js';
import type { Notice } from '../../engine/loop-events.js';

export type NoticeLevel = 'info' | 'warn' | 'error' | 'success' | 'debug';

function files(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

/** The line a notice is for the person watching, and how loud it is; `agent` is how the agent is named ("Claude Code"). */
export function noticeLine(n: Notice, agent: string): { level: NoticeLevel; text: string } {
  switch (n.code) {
    case 'agent.output_format':
      return {
        level: 'warn',
        text: "Output format 'text': Claude's answer carries no session id, cost or token counts, so every loop starts a new conversation and cost, token and --max-cost limits are not tracked. Use the default 'json' format to keep them.",
      };
    case 'api_retry.exhausted':
      return { level: 'error', text: `Retry limit exceeded (${n.maxAttempts} attempts): ${n.message}` };
    case 'api_retry.waiting':
      return {
        level: 'warn',
        text: `${describeTransientCause(n.cause, n.status)}, attempt ${n.attempt}/${n.maxAttempts}. Waiting ${formatDuration(n.delayMs / 1000)}... (${n.message})`,
      };
    case 'call.failed':
      return { level: 'error', text: `❌ ${agent} call failed: ${n.message} — output: ${n.outputLogPath}` };
    case 'call.timeout':
      return {
        level: 'warn',
        text: n.productive
          ? `${agent} timed out after ${n.timeoutMinutes} min but changed ${n.filesChanged} file(s): analyzing the work (productive timeout)`
          : `${agent} timed out after ${n.timeoutMinutes} min with no detectable progress`,
      };
    case 'call.failed_with_changes': {
      const changed = `The agent call failed after changing ${files(n.filesChanged)}`;
      if (n.handling === 'no_checkpoint')
        return { level: 'warn', text: `${changed}; there is no checkpoint of this loop, so the changes stay in the work tree.` };
      if (n.handling === 'kept') {
        return {
          level: 'warn',
          text: `${changed}; the changes stay in the work tree. 'ralph --restore ${n.checkpointId ?? ''}' brings back the state before loop #${n.loop} (or run with --rollback-on-fail).`,
        };
      }
      return { level: 'warn', text: `${changed}: a failed attempt, rolled back like a failed verify.` };
    }
    case 'checkpoint.skipped':
      return { level: 'warn', text: `No checkpoint for loop #${n.loop}: ${n.reason}` };
    case 'circuit.retry_next':
      return { level: 'warn', text: 'Execution failed; the next loop retries after the pause' };
    case 'dry_run.command':
      return { level: 'info', text: `[DRY RUN] Would execute: ${n.description}` };
    case 'dry_run.format':
      return { level: 'info', text: `[DRY RUN] Output format: ${n.format}; timeout: ${n.timeoutMinutes} min` };
    case 'dry_run.review': {
      const model = n.model ? `, model ${n.model}` : '';
      const readOnly = n.readOnly ? `: ${n.readOnly}` : '';
      return {
        level: 'info',
        text: `[DRY RUN] Before a complete end, the reviewer: ${n.backend}${model}, in a fresh session, read-only${readOnly}; --review-max ${n.maxRejected}`,
      };
    }
    case 'dry_run.review_command':
      return { level: 'info', text: `[DRY RUN] The reviewer would execute: ${n.description}` };
    case 'exit.check':
      return {
        level: 'debug',
        text: `Exit check: test_loops=${n.testLoops} done_signals=${n.doneSignals} completion_indicators=${n.completionIndicators} unaccepted_claims=${n.unacceptedClaims}`,
      };
    case 'exit.note':
      return { level: 'info', text: n.note };
    case 'gate.action':
      return { level: 'info', text: `Verify gate: ${n.action}` };
    case 'gate.paused':
      return { level: 'warn', text: `The verify gate is paused: '${n.command}' failed ${n.attempts}/${n.maxAttempts} times in an earlier run.` };
    case 'gate.passes_before_work':
      return {
        level: 'warn',
        text: `The verify command '${n.command}' already passes before any change: this gate cannot tell whether the task is done. The loop ends when the agent reports EXIT_SIGNAL: true after changing something.`,
      };
    case 'gate.unattended':
      return { level: 'error', text: 'Verify attempts exhausted and nobody is at a terminal to decide: stopping.' };
    case 'plan.verify_fails':
      return { level: 'warn', text: 'Every task in fix_plan.md is checked, but the verify command fails: the loop continues with the failure as feedback' };
    case 'rollback.failed':
      return {
        level: 'error',
        text: `Rollback to checkpoint ${n.id} failed: ${n.reason}. ${n.partial ? 'The rollback is incomplete.' : "Nothing was rolled back: the attempt's changes are still in the work tree."}`,
      };
    case 'session.expired':
      return { level: 'info', text: `Session expired (${Math.floor(n.ageHours)}h old, max ${n.maxHours}h); starting a new one` };
    case 'session.other_agent':
      return {
        level: 'info',
        text: `The saved session ${n.sessionId.slice(0, 20)}... belongs to ${agentDisplayName(n.sessionBackend)}, not ${agent}: starting a new ${agent} session`,
      };
    case 'session.resumed':
      return { level: 'info', text: `Resuming ${agent} session: ${n.sessionId.slice(0, 20)}... (${Math.floor(n.ageHours)}h old)` };
    case 'task.continues':
      return {
        level: 'info',
        text:
          n.why === 'exit_signal_false'
            ? 'The verify command passes, but the agent said EXIT_SIGNAL: false: the loop continues'
            : 'The verify command passes, but nothing has changed in this run yet: the loop continues',
      };
    case 'tokens.used':
      return { level: 'info', text: `Tokens this hour: +${n.tokens}` };
    case 'verify.probe':
      return { level: 'info', text: `Running: ${n.command} (once before any change, to see whether it can tell the task is done)` };
    case 'verify.running':
      return { level: 'info', text: `Running: ${n.command} (verify attempt ${n.attempt}/${n.maxAttempts})` };
    case 'wait.resumed':
      return { level: 'info', text: 'Resuming the wait saved by the previous run' };
  }
}
