import { agentDisplayName } from '../../backends/registry.js';
import { RECOVERED_MESSAGE, type Transition } from '../../core/circuit-breaker.js';
import { describeRefusedDespiteRule } from '../../core/permission-denials.js';
import { formatDuration } from '../../core/time-format.js';
import { formatEscalationSummary } from '../../core/verify-escalation-summary.js';
import { describeVerifyFailure } from '../../core/verify-why-line.js';
import { Utf8Batch } from '../../core/utf8-batch.js';
import type { Logger } from '../../ports.js';
import type { CallProgress } from '../../ui/call-progress.js';
import { renderAnalysisSummary, renderHaltScreen } from '../../ui/screens.js';
import { startWaitCountdown, type WaitCountdown } from '../../ui/wait-countdown.js';
import { presentLoopExit, presentLoopStop } from './exit-lines.js';
import type { ShownEvent } from './live-view.js';
import { noticeLine } from './notice-lines.js';
import { presentReview } from './review-lines.js';

export interface TerminalPresenterOptions {
  /** Lines with a level: stderr and ralph.log. */
  logger: Logger;
  /** Text as it is (countdowns, --live output as UTF-8 bytes, the escalation summary): stderr only. */
  write(text: string | Uint8Array): void;
  /** A human is at a terminal: spinners redraw in place. */
  tty: boolean;
  /** --live: the agent's output is shown as it arrives, so no other sign of life is needed. */
  live: boolean;
  createCallProgress(startedAt: number): CallProgress;
  /**
   * A stream brings thousands of small pieces of --live output a second, and a write to the
   * terminal each cost more than reading the stream. Given this, pieces are held and written
   * together once the burst that brought them is handled (`flush` runs then), and always before
   * anything else the presenter prints, so what the person sees, in its order, is the same.
   */
  deferLiveOutput?(flush: () => void): void;
  /** The command line that started this loop, for advice to run it again (default `ralph`). */
  restartCommand?: string;
}

function transitionLine(logger: Logger, t: Transition): void {
  if (t.to === 'OPEN') logger.error(`🚨 CIRCUIT BREAKER OPENED — Reason: ${t.reason}`);
  else if (t.to === 'HALF_OPEN') logger.warn(`⚠️  CIRCUIT BREAKER: Monitoring Mode — Reason: ${t.reason}`);
  else if (t.reason.startsWith('Progress detected')) logger.success(RECOVERED_MESSAGE);
  else logger.success(`✅ CIRCUIT BREAKER: Normal Operation — Reason: ${t.reason}`);
}

/** The most --live output held for one write (a pipe chunk of stream-json renders to less). */
const LIVE_OUTPUT_BYTES = 64 * 1024;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What the person at the terminal (and ralph.log) sees of a running loop. */
export function createTerminalPresenter(o: TerminalPresenterOptions): (event: ShownEvent) => void {
  const { logger } = o;
  let progress: CallProgress | undefined;
  let countdown: WaitCountdown | undefined;
  // The terminal's stream may keep what it is given until it drains, so each write gets its own buffer.
  const heldOutput = new Utf8Batch({ capacity: LIVE_OUTPUT_BYTES, reuse: false, drain: (bytes) => o.write(bytes) });
  let flushQueued = false;
  // Named from the backend the loop announces, so every line speaks of the agent that runs.
  let agent = 'The agent';
  let backend = '';
  const toldRefusals = new Set<string>();
  const writeHeldOutput = (): void => {
    flushQueued = false;
    heldOutput.flush();
  };
  const showOutput = (text: string): void => {
    if (o.deferLiveOutput === undefined) {
      o.write(text);
      return;
    }
    if (!flushQueued) {
      flushQueued = true;
      o.deferLiveOutput(writeHeldOutput);
    }
    heldOutput.append(text);
  };
  return (e) => {
    // Only these two come between pieces of output without printing anything of their own in --live.
    if (e.type !== 'call.output' && e.type !== 'call.activity') writeHeldOutput();
    switch (e.type) {
      case 'loop.start':
        agent = agentDisplayName(e.backend);
        backend = e.backend;
        logger.success(`🚀 Ralph loop starting (${e.backend} backend${e.dryRun ? ', dry run' : ''})`);
        logger.info(`Max calls/hour: ${e.maxCallsPerHour}; timeout: ${e.timeoutMinutes} min; project: ${e.project}`);
        return;
      case 'iteration.start':
        logger.loop(`=== Starting Loop #${e.iteration} ===`);
        return;
      case 'call.start':
        logger.info(`Executing ${agentDisplayName(e.backend)} (call ${e.call}; timeout ${e.timeoutMinutes} min)`);
        return;
      case 'call.running':
        progress = o.live ? undefined : o.createCallProgress(e.startedAt);
        progress?.tick(e.startedAt);
        return;
      case 'call.beat':
        progress?.tick(e.now);
        return;
      case 'call.activity':
        progress?.update(e.tool !== undefined ? { tool: e.tool } : { lastLine: e.lastLine ?? '' });
        return;
      case 'call.output':
        if (o.live) showOutput(e.text);
        return;
      case 'call.end':
        if (e.run) logger.debug(`Agent call took ${e.run.durationMs} ms (${e.run.end}, exit ${e.run.exitCode ?? 'none'})`);
        progress?.stop();
        progress = undefined;
        return;
      case 'analysis': {
        const a = e.analysis;
        for (const warning of a.warnings) logger.warn(`Analysis: ${warning}`);
        logger.print(renderAnalysisSummary(a));
        if (a.hasCompoundCommandLimitation) logger.warn(describeRefusedDespiteRule(agent, a.deniedCommands));
        return;
      }
      case 'verify.result':
        if (e.decision === 'passed') logger.success(`✅ Verify passed: ${e.command} (${e.result.durationMs} ms)`);
        else if (e.decision === 'bounce')
          logger.warn(`❌ Verify failed (attempt ${e.attempt}/${e.maxAttempts}): ${describeVerifyFailure(e.result)}; the failure goes back to the agent`);
        return;
      case 'verify.escalated':
        o.write(`\n${formatEscalationSummary({ result: e.result, attempts: e.attempts, maxAttempts: e.maxAttempts, tty: o.tty })}\n\n`);
        return;
      case 'checkpoint.created':
        logger.debug(`Checkpoint ${e.id} created`);
        return;
      case 'checkpoint.restored': {
        const r = e.reverted;
        const files = r.length > 0 ? ` (${plural(r.length, 'file')} reverted: ${r.slice(0, 10).join(', ')}${r.length > 10 ? ', …' : ''})` : '';
        logger.warn(`↩️  Rolled back to the state before loop #${e.iteration}${files}${e.attemptRef ? `; the failed attempt is kept at ${e.attemptRef}` : ''}`);
        if (e.restoreCommand && r.length > 0) logger.warn(`   Bring a reverted file back with: ${e.restoreCommand}`);
        for (const line of e.refsMoved) logger.warn(`   Ref moved back: ${line}`);
        for (const line of e.refsLeft) logger.warn(`   Ref left as it is: ${line}`);
        for (const line of e.notes) logger.warn(`   Note: ${line}`);
        return;
      }
      case 'circuit.transition':
        transitionLine(logger, e.transition);
        return;
      case 'circuit.halt':
        logger.print(renderHaltScreen(e.circuit, o.restartCommand));
        return;
      case 'wait.start':
        logger.info(`${e.wait.message} — waiting ${formatDuration((e.wait.until - e.now) / 1000)} (until ${new Date(e.wait.until).toLocaleString()})`);
        countdown = startWaitCountdown({ label: e.wait.message, until: e.wait.until, now: e.now, tty: o.tty, write: o.write });
        return;
      case 'wait.tick':
        countdown?.tick(e.now);
        return;
      case 'wait.end':
        countdown?.stop();
        countdown = undefined;
        return;
      case 'sandbox.refused': {
        // An agent that retries gets the same refusal many times: each is recorded, told once a loop.
        const key = `${e.iteration}\0${e.refusal.detail}`;
        if (toldRefusals.has(key)) return;
        toldRefusals.add(key);
        logger.warn(`🛡️  Sandbox refused the agent: ${e.refusal.detail}`);
        return;
      }
      case 'limit.usage':
        logger.warn(`${agent} hit its usage limit: ${e.message}`);
        return;
      case 'iteration.end': {
        if (!e.verdict) return;
        const took = formatDuration((e.endedAt - e.startedAt) / 1000);
        const { label, success } = e.verdict;
        logger.loop(success ? `=== Completed Loop #${e.iteration} (${label}, ${took}) ===` : `=== Loop #${e.iteration} ended: ${label} (${took}) ===`);
        return;
      }
      case 'notice': {
        const { level, text } = noticeLine(e, agent);
        logger[level](text);
        return;
      }
      case 'loop.stop':
        presentLoopStop(logger, e, backend, o.restartCommand);
        return;
      case 'loop.exit':
        presentLoopExit(logger, e);
        return;
      case 'review.start':
      case 'review.end':
        presentReview(logger, e);
        return;
      default:
        return;
    }
  };
}
