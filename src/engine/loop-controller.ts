import { applyCooldown } from '../core/circuit-breaker.js';
import { classifyCall } from '../core/call-outcome.js';
import { checkCall, recordCallStart } from '../core/rate-limiter.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import { describeMissingCheckpoint } from '../core/checkpoint-policy.js';
import { formatDuration } from '../core/time-format.js';
import { callAgent } from './agent-call.js';
import { analyzeIteration, errorLinesOf } from './analysis-step.js';
import { announceTransition, updateCircuit } from './circuit-step.js';
import { checkPlanComplete, decideExit, decideTaskExit } from './exit-step.js';
import { accountUsage, recordIterationEnd } from './iteration-record.js';
import { clearApiRetries, handleApiTransient, handleUsageLimit, resumeSavedWait, waitForCallBudget } from './limit-handlers.js';
import type { LoopDeps, LoopOptions } from './loop-deps.js';
import { finishLoop, type LoopResult } from './loop-finish.js';
import { LoopRun, type Step } from './loop-run.js';

export type { LoopResult } from './loop-finish.js';

/**
 * The loop. Per iteration, in this order: stop request → integrity →
 * circuit breaker → rate limiter → exit conditions that need no call →
 * checkpoint → agent → analysis → verify gate → circuit breaker update → exit
 * conditions → status, metrics, recording → pause.
 */
export async function runLoop(deps: LoopDeps, options: LoopOptions): Promise<LoopResult> {
  const s = new LoopRun(deps, options);
  try {
    return await runToTheEnd(s);
  } catch (error) {
    // An unexpected failure still leaves a truthful status behind.
    s.state.exitReason = 'agent_failure';
    s.setAction('crashed', 'error', `Ralph stopped on an unexpected error: ${(error as Error).message}`);
    s.emit({ type: 'loop.crash', iterations: s.state.loop, message: (error as Error).message });
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
    s.notice(
      'warn',
      'gate.passes_before_work',
      `The verify command '${gate.command}' already passes before any change: this gate cannot tell whether the task is done. The loop ends when the agent reports EXIT_SIGNAL: true after changing something.`,
    );
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
  if (config.outputFormat === 'text' && !config.live && backend.name === 'claude') {
    s.notice(
      'warn',
      'agent.output_format',
      "Output format 'text': Claude's answer carries no session id, cost or token counts, so every loop starts a new conversation and cost, token and --max-cost limits are not tracked. Use the default 'json' format to keep them.",
    );
  }
  s.setAction('starting', 'running');
}

/** Checks that need no agent call; returns a reason to stop, if any. */
function preflight(s: LoopRun): Step {
  const { config } = s;
  const { store } = s.deps;
  if (s.deps.interrupt.aborted) return { stop: 'interrupted' };
  if (store.stopRequested()) return { stop: 'stop_requested' };
  const loops = s.state.loop;
  if (s.options.dryRun && loops >= (config.maxLoops || 3)) return { stop: 'dry_run' };
  if (config.maxLoops > 0 && loops >= config.maxLoops) return { stop: 'max_loops', message: `reached --max-loops ${config.maxLoops}` };
  const ranMs = s.now - s.state.startedAt;
  if (config.maxRuntimeMinutes > 0 && ranMs >= config.maxRuntimeMinutes * 60_000) {
    return { stop: 'max_runtime', message: `ran for ${formatDuration(ranMs / 1000)} (limit ${config.maxRuntimeMinutes} min)` };
  }
  if (config.maxCostUsd > 0 && s.state.totals.cost_usd >= config.maxCostUsd) {
    return { stop: 'max_cost', message: `spent $${s.state.totals.cost_usd.toFixed(4)} (limit $${config.maxCostUsd})` };
  }
  const missing = store.missingProjectFiles(s.options.task !== undefined, s.options.promptPath);
  if (missing.length > 0) {
    return { stop: 'integrity_failure', message: `Ralph integrity check failed. Missing files: ${missing.join(', ')}. To restore only the missing files (yours stay as they are), run: ralph-enable` };
  }
  if (s.state.circuit.state === 'OPEN') {
    s.emit({ type: 'circuit.halt', circuit: s.state.circuit });
    return { stop: 'circuit_breaker_open', message: s.state.circuit.reason };
  }
  return undefined;
}

async function iterate(s: LoopRun): Promise<Step> {
  const { config } = s;
  const { store, probe, gate } = s.deps;
  const pre = preflight(s);
  if (pre) return pre;
  const permit = checkCall(s.state.rate, s.now, { maxCallsPerHour: config.maxCallsPerHour, maxTokensPerHour: config.maxTokensPerHour });
  if (!permit.ok) return waitForCallBudget(s, permit);
  const planStop = await checkPlanComplete(s);
  if (planStop) return planStop;
  // The checkpoint comes before the iteration counts as started: without one it may not start at all.
  if (gate && !s.options.dryRun) {
    const guard = await gate.beforeAgent(s.state.loop + 1);
    if (!guard.ok) return { stop: 'checkpoint_failed', message: describeMissingCheckpoint(s.state.loop + 1, guard.reason, s.config.rollbackOnFail) };
  }

  s.state.loop += 1;
  const loop = s.state.loop;
  const started = s.now;
  store.rotateLogs();
  store.touchRalphSession(started);
  s.emit({ type: 'iteration.start', iteration: loop });
  if (s.options.dryRun) return dryRunIteration(s, loop, started);

  await probe.begin();
  const planBefore = store.readFixPlan(config.optionalSections);
  s.state.rate = recordCallStart(s.state.rate, s.now);
  store.saveRate(s.state.rate);
  s.state.totals.calls += 1;
  s.setAction('executing', 'running', `Loop #${loop}: Claude is working`);
  s.emit({ type: 'call.start', iteration: loop, call: s.state.totals.calls, backend: s.deps.backend.name, timeoutMinutes: config.timeoutMinutes });

  const outputLogPath = store.newOutputLogPath(loop, s.now);
  const { run: agentRun } = await callAgent(s, outputLogPath);
  store.pruneOutputLogs();
  const outcome = classifyCall(agentRun, s.now, s.deps.timeZone);
  s.lastDenials = agentRun.output.permissionDenials;
  accountUsage(s, agentRun, outcome);
  const end = { loop, started, agentRun };
  if (outcome.kind === 'interrupted' || s.deps.interrupt.aborted) {
    recordIterationEnd(s, { ...end, outcome: 'interrupted' });
    return { stop: 'interrupted' };
  }
  if (outcome.kind === 'fatal') {
    recordIterationEnd(s, { ...end, outcome: 'failed' });
    return { stop: 'agent_failure', message: outcome.message };
  }
  if (outcome.kind === 'unrecoverable') {
    recordIterationEnd(s, { ...end, outcome: 'failed' });
    return { stop: 'agent_failure', message: `Claude Code cannot continue: ${outcome.message}\n${outcome.advice}` };
  }
  if (outcome.kind === 'usage_limit') {
    recordIterationEnd(s, { ...end, outcome: 'usage_limit' });
    return handleUsageLimit(s, outcome);
  }
  if (outcome.kind === 'api_transient') {
    recordIterationEnd(s, { ...end, outcome: 'api_error' });
    return handleApiTransient(s, outcome);
  }
  if (outcome.kind === 'success') clearApiRetries(s);

  const measured = await probe.measure();
  const planAfter = store.readFixPlan(config.optionalSections);
  const progress: ProgressFacts = { ...measured, tasksChecked: Math.max(0, (planAfter?.checked ?? 0) - (planBefore?.checked ?? 0)) };
  const productive = outcome.kind === 'timeout' && (progress.filesChanged > 0 || progress.tasksChecked > 0);
  if (outcome.kind === 'timeout') {
    s.notice(
      'warn',
      'call.timeout',
      productive
        ? `Claude timed out after ${config.timeoutMinutes} min but changed ${progress.filesChanged} file(s): analyzing the work (productive timeout)`
        : `Claude timed out after ${config.timeoutMinutes} min with no detectable progress`,
    );
  }
  if (outcome.kind === 'failed') {
    s.notice('error', 'call.failed', `❌ Claude Code call failed: ${outcome.message} — output: ${outputLogPath}`);
    if (outcome.resetSession) store.resetSession('api_error_is_error_true', loop, s.now);
  }

  if (progress.filesChanged > 0 || progress.committed || progress.tasksChecked > 0) s.state.workInRun = true;
  const usable = outcome.kind === 'success' || productive;
  const analysis: Analysis | undefined = usable ? analyzeIteration(s, loop, agentRun, progress, outputLogPath) : undefined;
  s.state.errorHistory = [errorLinesOf(agentRun, outcome, analysis), ...s.state.errorHistory].slice(0, 5);
  store.saveErrorHistory(s.state.errorHistory);

  const gateRun = usable && gate ? await gate.afterAgent(loop) : undefined;
  if (gateRun) {
    s.state.verify = gate?.status() ?? null;
    if (gateRun.rolledBack) probe.invalidate();
  }
  // A failed call that changed files is a failed attempt: its half-done work must not silently become the next baseline.
  if (outcome.kind === 'failed' && gate && (await gate.afterFailedCall(loop, progress.filesChanged))) probe.invalidate();
  if (analysis && progress.method === 'none' && analysis.hasProgress) s.state.workInRun = true;
  const exit = analysis ? decideExit(s, analysis, gateRun) : undefined;
  // Test saturation is stagnation the exit rules recognise: it ends the loop before the breaker counts it.
  const stagnation = exit?.stop === 'test_saturation' ? exit : undefined;
  const circuitStop = stagnation ? undefined : updateCircuit(s, loop, usable, analysis, gateRun);
  const iterationOutcome = outcome.kind === 'timeout' ? (productive ? 'timeout_productive' : 'timeout') : outcome.kind === 'success' ? 'success' : 'failed';
  recordIterationEnd(s, { ...end, outcome: iterationOutcome, ...(analysis ? { analysis } : {}), progress, ...(gateRun ? { gate: gateRun } : {}) });
  if (gateRun?.decision === 'escalated_abort') return { stop: 'verify_aborted', message: `verify command failed ${gateRun.attempt}/${gateRun.maxAttempts} times` };
  if (stagnation) return stagnation;
  if (circuitStop) return circuitStop;
  const taskStop = decideTaskExit(s, gateRun, analysis);
  if (taskStop) return taskStop;
  if (exit) return exit;
  return pause(s);
}

function dryRunIteration(s: LoopRun, loop: number, started: number): Promise<Step> {
  const { config } = s;
  const request = { loop, cwd: s.deps.store.paths.project, prompt: s.options.readPrompt(), loopContext: `Loop #${loop}.`, timeoutMs: config.timeoutMinutes * 60_000, outputLogPath: '', live: config.live };
  s.notice('info', 'dry_run', `[DRY RUN] Would execute: ${s.deps.backend.describe(request)}`);
  s.notice('info', 'dry_run', `[DRY RUN] Output format: ${config.live ? 'stream-json' : config.outputFormat}; timeout: ${config.timeoutMinutes} min`);
  s.setAction('dry_run', 'running', `Loop #${loop}: dry run`);
  s.emit({ type: 'iteration.end', iteration: loop, outcome: 'dry_run', startedAt: started, endedAt: s.now });
  return pause(s);
}

async function pause(s: LoopRun): Promise<Step> {
  const seconds = s.config.pauseSeconds;
  if (seconds <= 0) return undefined;
  try {
    await s.deps.clock.sleep(seconds * 1000, s.deps.interrupt);
  } catch {
    return { stop: 'interrupted' };
  }
  return undefined;
}
