import { applyCooldown } from '../core/circuit-breaker.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import { recordCallStart } from '../core/rate-limiter.js';
import { emptyReview, type StatusReview } from '../core/status-model.js';
import { callAgent } from './agent-call.js';
import { announceTransition } from './circuit-step.js';
import { assessWork, decideAfterWork, isUsableKind, settleCallWithoutWork, startMeasuring, type CallMade } from './work-assessment.js';
import { accountUsage } from './iteration-record.js';
import { resumeSavedWait } from './limit-handlers.js';
import type { LoopDeps, LoopOptions } from './loop-deps.js';
import { finishLoop, type LoopResult } from './loop-finish.js';
import { LoopRun, type Step } from './loop-run.js';
import { checkBeforeCall } from './preflight.js';
import { pause } from './pause.js';
import { noteWindows, settleQuota } from './quota-step.js';
import { reviewBeforeEnd } from './review-step.js';
import { describeReviewCall } from './review-dry-run.js';
import { errorMessage } from '../errors.js';

export type { LoopResult } from './loop-finish.js';

/**
 * The loop. Per iteration, in this order: stop request → integrity →
 * circuit breaker → rate limiter → exit conditions that need no call →
 * checkpoint → agent → analysis → verify gate → circuit breaker update → exit
 * conditions → the reviewer, when the loop would end complete (--review) → status, metrics,
 * recording → pause.
 */
export async function runLoop(deps: LoopDeps, options: LoopOptions): Promise<LoopResult> {
  const s = new LoopRun(deps, options);
  try {
    return await runToTheEnd(s);
  } catch (error) {
    // An unexpected failure still leaves a truthful status behind.
    s.state.exitReason = 'agent_failure';
    s.setAction('crashed', 'error', `Ralph stopped on an unexpected error: ${errorMessage(error)}`);
    s.emit({ type: 'loop.crash', iterations: s.state.loop, message: errorMessage(error) });
    throw error;
  }
}

async function runToTheEnd(s: LoopRun): Promise<LoopResult> {
  startup(s);
  if ((await s.deps.gate?.resolvePausedGate()) === 'abort') return finishLoop(s, 'verify_aborted', 'the paused verify gate was answered with abort');
  s.state.verify = s.deps.gate?.status() ?? null;
  await warnIfGateAlreadyPasses(s);
  const resumed = await resumeSavedWait(s);
  if (resumed) return finishLoop(s, resumed.stop, resumed.message);
  for (;;) {
    const stop = await iterate(s);
    if (stop) return finishLoop(s, stop.stop, stop.message);
  }
}

/**
 * A task's verify command that passes before the agent changed anything
 * cannot say when the task is done: the user hears it at the start, and the
 * loop then relies on the agent's EXIT_SIGNAL and the work it did.
 */
async function warnIfGateAlreadyPasses(s: LoopRun): Promise<void> {
  const gate = s.deps.gate;
  if (!s.options.task || s.options.dryRun || !gate?.active()) return;
  if (await gate.probeBeforeWork()) {
    s.notice({ code: 'gate.passes_before_work', command: gate.command });
  }
}

function startup(s: LoopRun): void {
  const { store, backend, gate } = s.deps;
  const { config } = s;
  // Completion evidence of an earlier run must not end this one.
  store.clearRunEvidence();
  store.clearStopRequest();
  s.state.errorHistory = store.loadErrorHistory();
  const cooled = applyCooldown(s.state.circuit, s.now, s.limits);
  s.state.circuit = cooled.state;
  store.saveCircuit(cooled.state);
  if (cooled.transition) announceTransition(s, cooled.transition);
  store.touchRalphSession(s.now);
  s.emit({
    type: 'loop.start',
    project: store.paths.project,
    backend: backend.name,
    dryRun: s.options.dryRun,
    maxLoops: config.maxLoops,
    maxCallsPerHour: config.maxCallsPerHour,
    timeoutMinutes: config.timeoutMinutes,
    verifyCommand: gate?.command || null,
    task: s.options.task?.text ?? null,
    pid: s.options.pid,
  });
  // Plain text carries no session id, cost or token counts: say what the user gives up.
  // With --park-at or --stop-at the calls stream every event whatever the format: nothing is given up.
  const windowsRead = config.parkAt !== null || config.stopAt !== null;
  if (config.outputFormat === 'text' && !config.live && !windowsRead && backend.name === 'claude') {
    s.notice({ code: 'agent.output_format' });
  }
  // With --review, status.json shows the reviewer from the start ("not reviewed yet"); a run resumed
  // after a crash keeps its reviews and rejections in a row, and the findings the next worker call was to get.
  if (s.deps.review) s.state.review = resumedReview(s) ?? emptyReview(s.deps.review.backend.name, config.reviewMax);
  s.setAction('starting', 'running');
}

/** One iteration: the checks before a call, the call, what its work amounts to, and the verdict. */
async function iterate(s: LoopRun): Promise<Step> {
  const before = await checkBeforeCall(s);
  if (before.blocked) return reviewBeforeEnd(s, before.blocked, before.reserved === true);
  const iteration = startIteration(s);
  if (s.options.dryRun) return dryRunIteration(s, iteration.loop, iteration.started);
  const call = await makeCall(s, iteration, before.planBefore);
  if (s.deps.interrupt.aborted || !isUsableKind(call.outcome)) return decided(s, call.loop, await settleCallWithoutWork(s, call));
  // The worker's call took the findings of a rejected review: the next review judges what it made of them.
  delete s.state.reviewFindings;
  const work = await assessWork(s, call);
  return decided(s, call.loop, (await reviewBeforeEnd(s, decideAfterWork(s, call, work))) ?? (await settleQuota(s))) ?? pause(s);
}

/** Says what the loop decided after an iteration (its receipt is written then), and passes the decision on. */
function decided(s: LoopRun, loop: number, step: Step): Step {
  s.emit({ type: 'iteration.decided', iteration: loop, stop: step?.stop ?? null, detail: step?.message ?? null });
  return step;
}

function startIteration(s: LoopRun): { loop: number; started: number } {
  s.state.loop += 1;
  const loop = s.state.loop;
  const started = s.now;
  s.deps.store.rotateLogs();
  s.deps.store.touchRalphSession(started);
  // status.json has the new loop number before anything records it started: a crash from here on
  // is resumed after this loop, never with its number again.
  s.publish();
  s.emit({ type: 'iteration.start', iteration: loop });
  return { loop, started };
}

/** The agent call of an iteration, classified, its usage counted. */
async function makeCall(s: LoopRun, { loop, started }: { loop: number; started: number }, planBefore: FixPlanSummary | undefined): Promise<CallMade> {
  const { config } = s;
  const { store, probe } = s.deps;
  await probe.begin();
  s.state.rate = recordCallStart(s.state.rate, s.now, store.nextCallId?.());
  store.saveRate(s.state.rate);
  // Loops sharing the hourly budget see this call before it starts (the write waits for the file's lock without blocking).
  await store.settleSharedRate?.();
  s.state.totals.calls += 1;
  s.setAction('executing', 'running', `Loop #${loop}: ${s.deps.backend.displayName} is working`);
  s.emit({ type: 'call.start', iteration: loop, call: s.state.totals.calls, backend: s.deps.backend.name, timeoutMinutes: config.timeoutMinutes });

  const outputLogPath = store.newOutputLogPath(loop, s.now);
  const { run: agentRun } = await callAgent(s, outputLogPath, planBefore);
  const outcome = agentRun.outcome;
  // Only a call whose work assessWork looks at is measured (see iterate).
  const measuring = !s.deps.interrupt.aborted && isUsableKind(outcome) ? startMeasuring(s) : undefined;
  store.pruneOutputLogs();
  s.lastDenials = agentRun.permissionDenials;
  accountUsage(s, agentRun, outcome);
  noteWindows(s, agentRun);
  return { loop, started, agentRun, outcome, outputLogPath, planBefore, ...(measuring ? { measuring } : {}) };
}

function dryRunIteration(s: LoopRun, loop: number, started: number): Promise<Step> {
  const { config } = s;
  const request = {
    loop,
    cwd: s.deps.store.paths.project,
    prompt: s.options.readPrompt(),
    loopContext: `Loop #${loop}.`,
    timeoutMs: config.timeoutMinutes * 60_000,
    outputLogPath: '',
    live: config.live,
  };
  s.notice({ code: 'dry_run.command', description: s.deps.backend.describe(request) });
  s.notice({ code: 'dry_run.format', format: s.deps.backend.describeOutput(request), timeoutMinutes: config.timeoutMinutes });
  describeReviewCall(s, request);
  s.setAction('dry_run', 'running', `Loop #${loop}: dry run`);
  s.emit({ type: 'iteration.end', iteration: loop, outcome: 'dry_run', startedAt: started, endedAt: s.now });
  return pause(s);
}

/** The reviewer pass of the run a crash cut short, with this start's reviewer and --review-max. */
function resumedReview(s: LoopRun): StatusReview | undefined {
  const before = s.options.resume?.review;
  if (!before || !s.deps.review) return undefined;
  if (before.last_verdict === 'CHANGES_REQUESTED') s.state.reviewFindings = [...before.findings];
  return { ...before, findings: [...before.findings], backend: s.deps.review.backend.name, max_rejected: s.config.reviewMax };
}
