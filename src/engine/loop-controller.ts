import { applyCooldown, recordIteration, RECOVERED_MESSAGE, type CircuitLimits, type Transition } from '../core/circuit-breaker.js';
import { classifyCall, type CallOutcome } from '../core/call-outcome.js';
import { EXIT_REASONS, isCompletionReason, type ExitReason } from '../core/exit-reasons.js';
import { decideIterationExit, isPlanComplete } from '../core/exit-detection.js';
import { claimsCompletion, emptyExitSignals, recordAnalysis, recordClaimOutcome } from '../core/exit-signals.js';
import { suggestAllowedTools } from '../core/permission-denials.js';
import type { PermissionDenial } from '../core/agent-output.js';
import { apiRetryDelayMs, checkCall, recordCallStart, recordCallTokens } from '../core/rate-limiter.js';
import { analyzeResponse, type Analysis, type ProgressFacts } from '../core/response-analyzer.js';
import { formatDuration, isoTimestamp } from '../core/time-format.js';
import type { AgentRun } from '../ports.js';
import { renderAnalysisSummary, renderHaltScreen, renderPermissionDenied } from '../ui/screens.js';
import { callAgent } from './agent-call.js';
import type { LoopDeps, LoopOptions } from './loop-deps.js';
import { newRunState, toStatusDocument, type RunState } from './run-state.js';
import { sitOut } from './waits.js';
import type { GateRun } from './verify-gate.js';

export interface LoopResult {
  reason: ExitReason;
  exitCode: number;
  loops: number;
  message: string;
}

type Step = { stop: ExitReason; message?: string } | undefined;

/**
 * The loop (spec §3). Per iteration, in this order: stop request → integrity →
 * circuit breaker → rate limiter → exit conditions that need no call →
 * checkpoint → agent → analysis → verify gate → circuit breaker update → exit
 * conditions → status, metrics, recording → pause.
 */
export async function runLoop(deps: LoopDeps, options: LoopOptions): Promise<LoopResult> {
  return new LoopController(deps, options).execute();
}

class LoopController {
  private readonly run: RunState;
  private readonly limits: CircuitLimits;
  private lastDenials: readonly PermissionDenial[] = [];

  constructor(
    private readonly deps: LoopDeps,
    private readonly options: LoopOptions,
  ) {
    const c = options.config;
    this.limits = {
      noProgress: c.cbNoProgressThreshold,
      sameError: c.cbSameErrorThreshold,
      permissionDenials: c.cbPermissionDenialThreshold,
      failures: c.cbFailureThreshold,
      halfOpenAfter: Math.min(2, c.cbNoProgressThreshold),
      cooldownMinutes: c.cbCooldownMinutes,
      autoReset: c.cbAutoReset,
    };
    const now = deps.clock.now();
    this.run = newRunState(now, deps.store.loadCircuit(now), emptyExitSignals(), deps.store.loadRate());
  }

  private get now(): number {
    return this.deps.clock.now();
  }

  private publish(): void {
    const { config, pid } = this.options;
    this.deps.store.writeStatus(toStatusDocument(this.run, { config, project: this.deps.store.paths.project, backend: this.deps.backend.name, pid }, this.now));
  }

  private setAction(lastAction: string, status: string, message = ''): void {
    this.run.lastAction = lastAction;
    this.run.status = status;
    this.run.message = message;
    this.publish();
  }

  private circuitTransition(t: Transition): void {
    const { logger, recorder, store } = this.deps;
    store.recordCircuitTransition(t, this.run.loop, this.now);
    recorder.record('circuit.transition', { iteration: this.run.loop, from: t.from, to: t.to, reason: t.reason });
    if (t.to === 'OPEN') logger.error(`🚨 CIRCUIT BREAKER OPENED — Reason: ${t.reason}`);
    else if (t.to === 'HALF_OPEN') logger.warn(`⚠️  CIRCUIT BREAKER: Monitoring Mode — Reason: ${t.reason}`);
    else if (t.reason.startsWith('Progress detected')) logger.success(RECOVERED_MESSAGE);
    else logger.success(`✅ CIRCUIT BREAKER: Normal Operation — Reason: ${t.reason}`);
  }

  private startup(): void {
    const { store, logger, recorder } = this.deps;
    const { config } = this.options;
    store.clearRunEvidence();
    store.clearStopRequest();
    this.run.errorHistory = store.loadErrorHistory();
    const cooled = applyCooldown(this.run.circuit, this.now, this.limits);
    this.run.circuit = cooled.state;
    store.saveCircuit(cooled.state);
    if (cooled.transition) this.circuitTransition(cooled.transition);
    store.touchRalphSession(this.now);
    this.run.verify = this.deps.gate?.status() ?? null;
    logger.success(`🚀 Ralph loop starting (${this.deps.backend.name} backend${this.options.dryRun ? ', dry run' : ''})`);
    logger.info(`Max calls/hour: ${config.maxCallsPerHour}; timeout: ${config.timeoutMinutes} min; project: ${store.paths.project}`);
    recorder.record('loop.start', {
      project: store.paths.project,
      backend: this.deps.backend.name,
      max_loops: config.maxLoops,
      dry_run: this.options.dryRun,
      verify_command: this.deps.gate?.command ?? null,
      task: this.options.task?.text ?? null,
      pid: this.options.pid,
    });
    this.setAction('starting', 'running');
  }

  async execute(): Promise<LoopResult> {
    try {
      return await this.runToTheEnd();
    } catch (error) {
      // An unexpected failure still leaves a truthful status behind.
      this.run.exitReason = 'agent_failure';
      this.setAction('crashed', 'error', `Ralph stopped on an unexpected error: ${(error as Error).message}`);
      this.deps.recorder.record('loop.exit', { reason: 'error', exit_code: 1, iterations: this.run.loop, message: (error as Error).message });
      throw error;
    }
  }

  private async runToTheEnd(): Promise<LoopResult> {
    this.startup();
    if ((await this.deps.gate?.resolvePausedGate()) === 'abort') return this.finish('verify_aborted', 'the paused verify gate was answered with abort');
    this.run.verify = this.deps.gate?.status() ?? null;
    const resumed = await this.resumeSavedWait();
    if (resumed) return this.finish(resumed.stop, resumed.message);
    for (;;) {
      const stop = await this.iterate();
      if (stop) return this.finish(stop.stop, stop.message);
    }
  }

  private async resumeSavedWait(): Promise<Step> {
    const wait = this.run.rate.wait;
    if (!wait || wait.until <= this.now) return undefined;
    this.deps.logger.info('Resuming the wait saved by the previous run');
    const end = await sitOut(this.deps, this.run, wait, () => this.publish());
    return this.waitEnded(end);
  }

  private waitEnded(end: 'done' | 'interrupted' | 'stopped'): Step {
    if (end === 'interrupted') return { stop: 'interrupted' };
    if (end === 'stopped') return { stop: 'stop_requested' };
    return undefined;
  }

  /** Checks that need no agent call; returns a reason to stop, if any. */
  private preflight(): Step {
    const { config } = this.options;
    const { store } = this.deps;
    if (this.deps.interrupt.aborted) return { stop: 'interrupted' };
    if (store.stopRequested()) return { stop: 'stop_requested' };
    const loops = this.run.loop;
    if (this.options.dryRun && loops >= (config.maxLoops || 3)) return { stop: 'dry_run' };
    if (config.maxLoops > 0 && loops >= config.maxLoops) return { stop: 'max_loops', message: `reached --max-loops ${config.maxLoops}` };
    if (config.maxRuntimeMinutes > 0 && this.now - this.run.startedAt >= config.maxRuntimeMinutes * 60_000) {
      return { stop: 'max_runtime', message: `ran for ${formatDuration((this.now - this.run.startedAt) / 1000)} (limit ${config.maxRuntimeMinutes} min)` };
    }
    if (config.maxCostUsd > 0 && this.run.totals.cost_usd >= config.maxCostUsd) {
      return { stop: 'max_cost', message: `spent $${this.run.totals.cost_usd.toFixed(4)} (limit $${config.maxCostUsd})` };
    }
    const missing = store.missingProjectFiles(this.options.task !== undefined, this.options.promptPath);
    if (missing.length > 0) {
      return { stop: 'integrity_failure', message: `Ralph integrity check failed. Missing files: ${missing.join(', ')}. To restore, run: ralph-enable --force` };
    }
    if (this.run.circuit.state === 'OPEN') {
      this.deps.logger.print(renderHaltScreen(this.run.circuit));
      return { stop: 'circuit_breaker_open', message: this.run.circuit.reason };
    }
    return undefined;
  }

  private async iterate(): Promise<Step> {
    const { config } = this.options;
    const { store, logger } = this.deps;
    const pre = this.preflight();
    if (pre) return pre;

    const permit = checkCall(this.run.rate, this.now, { maxCallsPerHour: config.maxCallsPerHour, maxTokensPerHour: config.maxTokensPerHour });
    if (!permit.ok) {
      const end = await sitOut(this.deps, this.run, { reason: 'rate_limit', until: permit.waitUntil, message: `Rate limit reached (${permit.reason})` }, () => {
        this.run.lastAction = 'rate_limited';
        this.run.status = 'waiting';
        this.publish();
      });
      return this.waitEnded(end);
    }

    const planStop = await this.checkPlanComplete();
    if (planStop) return planStop;

    this.run.loop += 1;
    const loop = this.run.loop;
    const iterationStart = this.now;
    store.rotateLogs();
    store.touchRalphSession(iterationStart);
    logger.loop(`=== Starting Loop #${loop} ===`);
    this.deps.recorder.record('iteration.start', { iteration: loop });

    if (this.options.dryRun) return this.dryRunIteration(loop, iterationStart);

    await this.deps.probe.begin();
    const planBefore = store.readFixPlan(config.optionalSections);
    await this.deps.gate?.beforeAgent(loop);

    this.run.rate = recordCallStart(this.run.rate, this.now);
    store.saveRate(this.run.rate);
    this.run.totals.calls += 1;
    this.setAction('executing', 'running', `Loop #${loop}: Claude is working`);
    logger.info(`Executing ${this.deps.backend.name === 'claude' ? 'Claude Code' : `${this.deps.backend.name} agent`} (call ${this.run.totals.calls}; timeout ${config.timeoutMinutes} min)`);

    const outputLogPath = store.newOutputLogPath(loop, this.now);
    const call = await callAgent(this.deps, this.options, this.run, outputLogPath);
    store.pruneOutputLogs();
    const agentRun = call.run;
    const outcome = classifyCall(agentRun, this.now, this.deps.timeZone);
    this.lastDenials = agentRun.output.permissionDenials;
    this.accountUsage(agentRun, outcome);

    if (outcome.kind === 'interrupted' || this.deps.interrupt.aborted) {
      this.recordIterationEnd(loop, iterationStart, 'interrupted', agentRun, undefined, undefined, undefined);
      return { stop: 'interrupted' };
    }
    if (outcome.kind === 'fatal') {
      this.recordIterationEnd(loop, iterationStart, 'failed', agentRun, undefined, undefined, undefined);
      return { stop: 'agent_failure', message: outcome.message };
    }
    if (outcome.kind === 'usage_limit') {
      this.recordIterationEnd(loop, iterationStart, 'usage_limit', agentRun, undefined, undefined, undefined);
      return this.handleUsageLimit(outcome);
    }
    if (outcome.kind === 'api_transient') {
      this.recordIterationEnd(loop, iterationStart, 'api_error', agentRun, undefined, undefined, undefined);
      return this.handleApiTransient(outcome);
    }
    if (this.run.rate.apiRetry && outcome.kind === 'success') {
      const { apiRetry: _cleared, ...rest } = this.run.rate;
      this.run.rate = rest;
      store.saveRate(this.run.rate);
    }

    const measured = await this.deps.probe.measure();
    const planAfter = store.readFixPlan(config.optionalSections);
    const progress: ProgressFacts = { ...measured, tasksChecked: Math.max(0, (planAfter?.checked ?? 0) - (planBefore?.checked ?? 0)) };
    const productiveTimeout = outcome.kind === 'timeout' && (progress.filesChanged > 0 || progress.tasksChecked > 0);
    if (outcome.kind === 'timeout') {
      logger.warn(productiveTimeout ? `Claude timed out after ${config.timeoutMinutes} min but changed ${progress.filesChanged} file(s): analyzing the work (productive timeout)` : `Claude timed out after ${config.timeoutMinutes} min with no detectable progress`);
    }
    if (outcome.kind === 'failed') {
      logger.error(`❌ Claude Code call failed: ${outcome.message} — output: ${outputLogPath}`);
      if (outcome.resetSession) store.resetSession('api_error_is_error_true', loop, this.now);
    }

    const usable = outcome.kind === 'success' || productiveTimeout;
    let analysis: Analysis | undefined;
    if (usable) {
      if (agentRun.output.sessionId && config.sessionContinuity) {
        store.rememberClaudeSession(agentRun.output.sessionId, this.now);
        this.run.sessionId = agentRun.output.sessionId;
      }
      analysis = analyzeResponse(agentRun.output, { loop, allowedTools: config.allowedTools, progress, previousErrorLines: this.run.errorHistory });
      for (const warning of analysis.warnings) logger.warn(`Analysis: ${warning}`);
      store.saveAnalysis(analysis, outputLogPath, this.now);
      this.run.lastAnalysis = analysis;
      logger.print(renderAnalysisSummary(analysis));
      this.deps.recorder.record('analysis', {
        iteration: loop,
        exit_signal: analysis.exitSignal,
        exit_signal_explicit: analysis.exitSignalExplicit,
        status: analysis.status ?? null,
        work_type: analysis.workType ?? null,
        has_progress: analysis.hasProgress,
        files_changed: progress.filesChanged,
        changed_files: progress.changedFiles,
        summary: analysis.workSummary,
        is_stuck: analysis.isStuck,
        denied_commands: analysis.deniedCommands,
      });
      if (analysis.hasCompoundCommandLimitation) {
        logger.warn(`Claude CLI denied ${analysis.compoundCommandCount} compound command(s) whose base command is already in ALLOWED_TOOLS: ${analysis.deniedCommands.join(', ')}. This is a Claude CLI matching limitation (pipes/redirects bypass Bash(cmd *) rules); the loop continues.`);
      }
    }
    this.run.errorHistory = [analysis?.errorLines ?? errorLinesOfFailure(agentRun, outcome), ...this.run.errorHistory].slice(0, 5);
    store.saveErrorHistory(this.run.errorHistory);

    const gate = usable && this.deps.gate ? await this.deps.gate.afterAgent(loop) : undefined;
    if (gate) {
      this.run.verify = this.deps.gate?.status() ?? null;
      if (gate.rolledBack) this.deps.probe.invalidate();
    }

    const circuitStop = this.updateCircuit(loop, outcome, usable, analysis, gate);
    const iterationOutcome = outcome.kind === 'timeout' ? (productiveTimeout ? 'timeout_productive' : 'timeout') : outcome.kind === 'success' ? 'success' : 'failed';
    this.recordIterationEnd(loop, iterationStart, iterationOutcome, agentRun, analysis, progress, gate);
    if (gate?.decision === 'escalated_abort') return { stop: 'verify_aborted', message: `verify command failed ${gate.attempt}/${gate.maxAttempts} times` };
    if (circuitStop) return circuitStop;
    const task = this.options.task;
    if (task && gate && gate.decision !== 'not_run') {
      if (gate.passed) return { stop: 'project_complete', message: `the task's verify command passed (attempt ${gate.attempt})` };
      if (task.singleShot) return { stop: 'verify_aborted', message: 'the verify command failed on the single attempt (add loop:true to keep trying)' };
    }
    if (analysis) {
      const exit = this.decideExit(analysis, gate);
      if (exit) return exit;
    }
    return this.pause();
  }

  private dryRunIteration(loop: number, started: number): Promise<Step> {
    const { config } = this.options;
    const request = {
      loop,
      cwd: this.deps.store.paths.project,
      prompt: this.options.readPrompt(),
      loopContext: `Loop #${loop}.`,
      timeoutMs: config.timeoutMinutes * 60_000,
      outputLogPath: '',
      live: config.live,
    };
    this.deps.logger.info(`[DRY RUN] Would execute: ${this.deps.backend.describe(request)}`);
    this.deps.logger.info(`[DRY RUN] Output format: ${config.live ? 'stream-json' : config.outputFormat}; timeout: ${config.timeoutMinutes} min`);
    this.setAction('dry_run', 'running', `Loop #${loop}: dry run`);
    this.deps.recorder.record('iteration.end', { iteration: loop, outcome: 'dry_run', duration_ms: this.now - started });
    this.deps.store.appendMetrics({ type: 'iteration', timestamp: isoTimestamp(this.now), loop, duration: (this.now - started) / 1000, success: true, calls: 0, duration_ms: this.now - started, outcome: 'dry_run' });
    return this.pause();
  }

  private async checkPlanComplete(): Promise<Step> {
    // An ad-hoc task is judged by its own gate, not by the project's fix_plan.md.
    if (this.options.task) return undefined;
    const plan = this.deps.store.readFixPlan(this.options.config.optionalSections);
    if (!isPlanComplete(plan, this.run.lastAnalysis)) return undefined;
    const gate = this.deps.gate;
    if (gate?.active()) {
      const result = await gate.verifyCurrentTree(this.run.loop);
      this.run.verify = gate.status();
      if (!result.passed) {
        this.deps.logger.warn('Every task in fix_plan.md is checked, but the verify command fails: the loop continues with the failure as feedback');
        if (result.decision === 'escalated_abort') return { stop: 'verify_aborted' };
        return undefined;
      }
    }
    return { stop: 'plan_complete', message: `all ${plan?.checked ?? 0} blocking tasks in fix_plan.md are checked` };
  }

  private accountUsage(agentRun: AgentRun, outcome: CallOutcome): void {
    const o = agentRun.output;
    const t = this.run.totals;
    if (o.usage) {
      t.input_tokens += o.usage.inputTokens;
      t.output_tokens += o.usage.outputTokens;
      t.cache_read_input_tokens += o.usage.cacheReadInputTokens;
      t.cache_creation_input_tokens += o.usage.cacheCreationInputTokens;
      const tokens = o.usage.inputTokens + o.usage.outputTokens;
      this.run.rate = recordCallTokens(this.run.rate, tokens);
      this.deps.store.saveRate(this.run.rate);
      if (this.options.config.maxTokensPerHour > 0) this.deps.logger.info(`Tokens this hour: +${tokens}`);
    }
    if (o.costUsd !== undefined) t.cost_usd += o.costUsd;
    if (o.numTurns !== undefined) t.num_turns += o.numTurns;
    this.deps.recorder.record('agent.result', {
      iteration: this.run.loop,
      end: agentRun.end,
      outcome: outcome.kind,
      exit_code: agentRun.exitCode ?? null,
      is_error: o.isError ?? null,
      subtype: o.subtype ?? null,
      session_id: o.sessionId ?? null,
      cost_usd: o.costUsd ?? 0,
      input_tokens: o.usage?.inputTokens ?? 0,
      output_tokens: o.usage?.outputTokens ?? 0,
      num_turns: o.numTurns ?? 0,
      duration_ms: agentRun.durationMs,
      format: o.format,
      ...(agentRun.details ?? {}),
    });
  }

  private updateCircuit(loop: number, outcome: CallOutcome, usable: boolean, analysis: Analysis | undefined, gate: GateRun | undefined): Step {
    const previousErrors = this.run.errorHistory[1] ?? [];
    const currentErrors = this.run.errorHistory[0] ?? [];
    const update = recordIteration(
      this.run.circuit,
      {
        loop,
        failed: !usable,
        progress: analysis !== undefined && (analysis.hasProgress || claimsCompletion(analysis)),
        verifyFailed: gate !== undefined && !gate.passed && gate.decision !== 'not_run',
        askingQuestions: analysis?.askingQuestions ?? false,
        hasErrors: currentErrors.length > 0,
        errorsRepeat: currentErrors.length > 0 && currentErrors.every((l) => previousErrors.includes(l)),
        permissionDenied: analysis?.hasPermissionDenials ?? false,
      },
      this.now,
      this.limits,
    );
    this.run.circuit = update.state;
    this.deps.store.saveCircuit(update.state);
    if (update.transition) this.circuitTransition(update.transition);
    if (update.state.state === 'OPEN') {
      this.deps.logger.print(renderHaltScreen(update.state));
      return { stop: 'circuit_breaker_open', message: update.state.reason };
    }
    if (outcome.kind === 'failed') this.deps.logger.warn('Execution failed; the next loop retries after the pause');
    return undefined;
  }

  private decideExit(analysis: Analysis, gate: GateRun | undefined): Step {
    const { store, logger } = this.deps;
    this.run.signals = recordAnalysis(this.run.signals, analysis);
    const gateActive = this.deps.gate?.active() ?? false;
    const verdict = decideIterationExit(this.run.signals, analysis, { configured: gateActive, ...(gate && gate.decision !== 'not_run' ? { passed: gate.passed } : {}) });
    const accepted = verdict.kind === 'complete';
    this.run.signals = recordClaimOutcome(this.run.signals, claimsCompletion(analysis), accepted);
    store.saveExitSignals(this.run.signals);
    if (this.options.config.verbose) {
      const s = this.run.signals;
      logger.debug(`Exit check: test_loops=${s.test_only_loops.length} done_signals=${s.done_signals.length} completion_indicators=${s.completion_indicators.length} unaccepted_claims=${s.unaccepted_claims}`);
    }
    switch (verdict.kind) {
      case 'permission_denied':
        return { stop: 'permission_denied', message: verdict.deniedCommands.join(', ') };
      case 'complete':
        return { stop: verdict.reason };
      case 'safety_circuit_breaker':
        return { stop: 'safety_circuit_breaker', message: `${verdict.claims} iterations claimed completion without being allowed to exit` };
      case 'continue':
        if (verdict.note) logger.info(verdict.note);
        return undefined;
    }
  }

  private recordIterationEnd(
    loop: number,
    started: number,
    outcome: string,
    agentRun: AgentRun,
    analysis: Analysis | undefined,
    progress: ProgressFacts | undefined,
    gate: GateRun | undefined,
  ): void {
    const o = agentRun.output;
    const duration = this.now - started;
    const success = outcome === 'success' || outcome === 'timeout_productive';
    this.run.lastIteration = {
      loop,
      outcome,
      duration_ms: duration,
      cost_usd: o.costUsd ?? 0,
      files_changed: progress?.filesChanged ?? 0,
      exit_signal: analysis ? analysis.exitSignal : null,
      summary: analysis?.workSummary ?? '',
      ended_at: isoTimestamp(this.now),
    };
    this.deps.store.writeProgress({ status: progressStatus(outcome), indicator: '✓', elapsed_seconds: Math.round(duration / 1000), last_output: (analysis?.workSummary ?? '').slice(0, 80), timestamp: isoTimestamp(this.now), loop, current_tool: null, tool_uses: o.toolUseCount, started_at: isoTimestamp(started) });
    this.deps.store.appendMetrics({
      type: 'iteration',
      timestamp: isoTimestamp(this.now),
      loop,
      duration: duration / 1000,
      success,
      calls: 1,
      duration_ms: duration,
      outcome,
      exit_code: agentRun.exitCode ?? null,
      is_error: o.isError === true,
      session_id: o.sessionId ?? null,
      input_tokens: o.usage?.inputTokens ?? 0,
      output_tokens: o.usage?.outputTokens ?? 0,
      cache_read_input_tokens: o.usage?.cacheReadInputTokens ?? 0,
      cache_creation_input_tokens: o.usage?.cacheCreationInputTokens ?? 0,
      cost_usd: o.costUsd ?? 0,
      num_turns: o.numTurns ?? 0,
      files_changed: progress?.filesChanged ?? 0,
      exit_signal: analysis ? analysis.exitSignal : null,
      verify: gate && gate.decision !== 'not_run' ? { passed: gate.passed, exit_code: gate.exitCode, timed_out: gate.timedOut, duration_ms: gate.durationMs, attempt: gate.attempt, max_attempts: gate.maxAttempts } : null,
    });
    this.deps.recorder.record('iteration.end', { iteration: loop, outcome, duration_ms: duration });
    this.setAction(success ? 'completed' : outcome === 'interrupted' ? 'interrupted' : 'failed', success ? 'success' : 'error', `Loop #${loop} ${outcome}`);
    this.deps.logger.loop(`=== Completed Loop #${loop} (${outcome}, ${formatDuration(duration / 1000)}) ===`);
  }

  private async handleUsageLimit(outcome: Extract<CallOutcome, { kind: 'usage_limit' }>): Promise<Step> {
    const { config } = this.options;
    const { logger, notifier, ui } = this.deps;
    const jitter = 30_000 + Math.floor(Math.random() * 60_000);
    const until = outcome.resetAt !== undefined ? outcome.resetAt + jitter : this.now + config.usageLimitWaitMinutes * 60_000;
    const when = new Date(until).toLocaleString();
    logger.warn(`Claude usage limit reached: ${outcome.message}`);
    notifier.notify('usage_limit', `Claude usage limit reached; Ralph waits until ${when}`);
    this.setAction('api_limit', 'paused', `Usage limit reached; resets ${outcome.resetAt !== undefined ? 'at' : 'in about'} ${outcome.resetAt !== undefined ? when : `${config.usageLimitWaitMinutes} min`}`);
    if (config.maxRuntimeMinutes > 0 && until > this.run.startedAt + config.maxRuntimeMinutes * 60_000) {
      return { stop: 'usage_limit', message: `the limit resets at ${when}, after --max-runtime ends` };
    }
    if (ui.tty) {
      ui.write('\nA Claude API usage limit has been reached (5-hour plan limit, weekly limit or Extra Usage quota).\n');
      const choice = await ui.ask(`Wait until ${when} or exit?`, ['wait', 'exit'] as const, 'wait', 30_000);
      if (choice === 'exit') {
        this.deps.store.resetSession('api_limit_exit', this.run.loop, this.now);
        return { stop: 'usage_limit', message: 'exited at the usage-limit prompt' };
      }
    }
    const end = await sitOut(this.deps, this.run, { reason: 'usage_limit', until, message: 'Claude usage limit reached' }, () => this.setAction('api_limit', 'paused', `Waiting for the usage limit to reset (${when})`));
    return this.waitEnded(end);
  }

  private async handleApiTransient(outcome: Extract<CallOutcome, { kind: 'api_transient' }>): Promise<Step> {
    const { config } = this.options;
    const { logger, store, ui } = this.deps;
    const attempts = (this.run.rate.apiRetry?.attempts ?? 0) + 1;
    if (attempts > config.apiRetryMax) {
      logger.error(`Retry limit exceeded (${config.apiRetryMax} attempts): ${outcome.message}`);
      let keepWaiting = false;
      if (ui.tty) keepWaiting = (await ui.ask('The API keeps refusing requests. Continue waiting?', ['yes', 'no'] as const, 'no', 30_000)) === 'yes';
      if (!keepWaiting) {
        const { apiRetry: _done, ...rest } = this.run.rate;
        this.run.rate = rest;
        store.saveRate(this.run.rate);
        this.deps.notifier.notify('error', 'Ralph stopped: the API kept refusing requests');
        return { stop: 'api_rate_limit', message: outcome.message };
      }
      this.run.rate = { ...this.run.rate, apiRetry: { attempts: 0, lastError: outcome.message } };
      return this.handleApiTransient(outcome);
    }
    this.run.rate = { ...this.run.rate, apiRetry: { attempts, lastError: outcome.message } };
    store.saveRate(this.run.rate);
    const delay = apiRetryDelayMs(attempts, config.apiRetryWaitSeconds);
    logger.warn(`Rate limit detected, attempt ${attempts}/${config.apiRetryMax}. Waiting ${formatDuration(delay / 1000)}... (${outcome.message})`);
    const end = await sitOut(this.deps, this.run, { reason: 'api_retry', until: this.now + delay, message: `API ${outcome.status ?? 'rate limit'} error, retry ${attempts}/${config.apiRetryMax}` }, () => this.setAction('api_retry', 'waiting'));
    return this.waitEnded(end);
  }

  private async pause(): Promise<Step> {
    const seconds = this.options.config.pauseSeconds;
    if (seconds <= 0) return undefined;
    try {
      await this.deps.clock.sleep(seconds * 1000, this.deps.interrupt);
    } catch {
      return { stop: 'interrupted' };
    }
    return undefined;
  }

  private finish(reason: ExitReason, message?: string): LoopResult {
    const { logger, store, recorder, notifier } = this.deps;
    const info = EXIT_REASONS[reason];
    const signalName = reason === 'interrupted' ? String(this.deps.interrupt.reason ?? 'SIGINT') : '';
    const exitCode = reason === 'interrupted' && signalName === 'SIGTERM' ? 143 : info.exitCode;
    const detail = message ?? info.describe;
    this.run.exitReason = reason;
    this.run.exitCode = exitCode;
    this.run.waiting = this.run.rate.wait && reason === 'interrupted' ? this.run.waiting : null;
    this.setAction(info.lastAction, info.status, detail);
    if (isCompletionReason(reason)) {
      logger.success(`🏁 Graceful exit triggered: ${reason} — ${detail}`);
      notifier.notify('completed', `Project completed! Exit reason: ${reason}`);
      store.resetSession('project_complete', this.run.loop, this.now);
    } else if (reason === 'permission_denied') {
      this.printPermissionHalt();
      store.resetSession('permission_denied', this.run.loop, this.now);
      notifier.notify('error', `Ralph halted: permission denied (${detail})`);
    } else if (reason === 'circuit_breaker_open' || reason === 'safety_circuit_breaker') {
      logger.error(`Ralph halted: ${reason} — ${detail}. Run 'ralph --reset-circuit' after fixing the cause.`);
      store.resetSession('circuit_breaker_open', this.run.loop, this.now);
      notifier.notify('circuit_open', `Circuit breaker opened: ${detail}`);
    } else if (reason === 'interrupted') {
      logger.warn(`Interrupted (${signalName}); state saved. Run 'ralph' to continue.`);
      store.resetSession('manual_interrupt', this.run.loop, this.now);
    } else if (reason === 'verify_aborted') {
      logger.error(`Verify gate aborted: ${detail}. State saved; fix the cause and run 'ralph' again.`);
      notifier.notify('verify_escalation', `Verify gate aborted: ${detail}`);
    } else if (reason === 'integrity_failure' || reason === 'agent_failure') {
      logger.error(detail);
      if (reason === 'integrity_failure') store.resetSession('integrity_failure', this.run.loop, this.now);
      notifier.notify('error', `Ralph stopped: ${detail}`);
    } else if (reason === 'dry_run' || reason === 'stop_requested') {
      logger.success(`Loop stopped: ${detail}`);
    } else {
      logger.warn(`Loop stopped: ${reason} — ${detail}`);
      if (reason === 'usage_limit' || reason === 'api_rate_limit') notifier.notify('usage_limit', `Ralph stopped: ${detail}`);
    }
    const elapsed = (this.now - this.run.startedAt) / 1000;
    const t = this.run.totals;
    logger.info(`Loops: ${this.run.loop}; calls: ${t.calls}; cost: $${t.cost_usd.toFixed(4)}; tokens: ${t.input_tokens} in / ${t.output_tokens} out; time: ${formatDuration(elapsed)}`);
    logger.info(`Exit reason: ${reason} (exit code ${exitCode})`);
    store.appendMetrics({ type: 'run', timestamp: isoTimestamp(this.now), started_at: isoTimestamp(this.run.startedAt), exit_reason: reason, exit_code: exitCode, loops: this.run.loop, duration: elapsed, cost_usd: t.cost_usd });
    recorder.record('loop.exit', { reason, exit_code: exitCode, iterations: this.run.loop, elapsed_secs: elapsed, message: detail });
    return { reason, exitCode, loops: this.run.loop, message: detail };
  }

  private printPermissionHalt(): void {
    const analysis = this.run.lastAnalysis;
    if (!analysis) return;
    const { config } = this.options;
    const suggestions = suggestAllowedTools(this.lastDenials, config.allowedTools);
    const line = `ALLOWED_TOOLS="${[...config.allowedTools, ...suggestions].join(',')}"`;
    this.deps.logger.print(renderPermissionDenied(analysis.deniedCommands, line, suggestions));
  }
}

function progressStatus(outcome: string): string {
  if (outcome === 'success') return 'completed';
  if (outcome === 'timeout_productive') return 'timed_out_productive';
  if (outcome === 'timeout') return 'timed_out';
  return 'failed';
}

function errorLinesOfFailure(run: AgentRun, outcome: CallOutcome): string[] {
  if (outcome.kind === 'failed') return [`agent failure: ${outcome.message.split('\n', 1)[0]?.slice(0, 200) ?? ''}`];
  if (outcome.kind === 'timeout') return ['agent timeout'];
  return run.output.text.errorLines;
}
