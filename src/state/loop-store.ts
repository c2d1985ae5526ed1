import { existsSync, rmSync } from 'node:fs';
import { readRegularFile } from './regular-file.js';
import { relative } from 'node:path';
import { RalphError } from '../errors.js';
import { readProjectText } from './project-file-read.js';
import { outputLogPath, pruneOutputLogs, rotateLogIfNeeded, type LogFileFacts } from './log-files.js';
import { appendHistory, type CircuitState, type Transition } from '../core/circuit-breaker.js';
import { emptyExitSignals, type ExitSignals } from '../core/exit-signals.js';
import { parseFixPlan, type FixPlanSummary } from '../core/fix-plan.js';
import type { RateState } from '../core/rate-limiter.js';
import type { Analysis } from '../core/response-analyzer.js';
import type { StatusDocument } from '../core/status-model.js';
import { parseGateAction, type GateAction, type GateState } from '../core/verify-gate.js';
import { isoTimestamp } from '../core/time-format.js';
import { loadDocument, readDocument, saveDocument } from './document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from './documents/circuit.js';
import { EXIT_SIGNALS } from './documents/exit-signals.js';
import { ITERATION_HISTORY, ITERATION_HISTORY_LIMIT } from './documents/iteration-history.js';
import { PROGRESS } from './documents/progress.js';
import { RATE_LIMIT } from './documents/rate-limit.js';
import { RESPONSE_ANALYSIS } from './documents/response-analysis.js';
import { STATUS } from './documents/status.js';
import { VERIFY_GATE } from './documents/verify-gate.js';
import { requiredProjectFiles } from './project-files.js';
import { writeJsonDocument } from './document-writes.js';
import { appendLine } from './json-file.js';
import { LIVE_LOG_MAX_BYTES, LiveLogFile, type DeferFlush } from './live-log-file.js';
import type { RalphPaths } from './paths.js';
import type { SharedRate } from './shared-rate.js';
import { StreamRedactor } from '../core/secret-redactor.js';
import type { LoopStorePort } from '../ports.js';
import { currentRedactors } from './redaction.js';
import { readAgentSession, rememberAgentSession, resetSession, touchRalphSession, type StoredAgentSession } from './agent-session-store.js';

/**
 * The loop's persistent state, one method per file. Every write is atomic;
 * every read of a damaged file resets it with a warning (never a crash).
 */
export class LoopStore implements LoopStorePort {
  private liveLog: LiveLogFile | undefined;
  private liveRedactor: StreamRedactor | undefined;
  private readonly outputLogs = new Map<string, LogFileFacts>();
  private sharedRate: SharedRate | undefined;
  /** The identity of the place reserved in the shared window for the next call, until that call takes it. */
  private reservedCall: string | undefined;
  private sharedWrites: Promise<void> = Promise.resolve();

  constructor(
    readonly paths: RalphPaths,
    private readonly warn: (message: string) => void,
    private readonly liveLogMaxBytes = LIVE_LOG_MAX_BYTES,
    private readonly deferLiveFlush?: DeferFlush,
  ) {}

  loadCircuit(nowMs: number): CircuitState {
    return loadDocument(this.paths, CIRCUIT_STATE, this.warn, nowMs);
  }

  saveCircuit(state: CircuitState): void {
    saveDocument(this.paths, CIRCUIT_STATE, state);
  }

  recordCircuitTransition(transition: Transition, loop: number, nowMs: number): void {
    const history = loadDocument(this.paths, CIRCUIT_HISTORY, this.warn, nowMs);
    saveDocument(this.paths, CIRCUIT_HISTORY, appendHistory(history, transition, loop, nowMs));
  }

  loadExitSignals(): ExitSignals {
    return loadDocument(this.paths, EXIT_SIGNALS, this.warn);
  }

  saveExitSignals(signals: ExitSignals): void {
    saveDocument(this.paths, EXIT_SIGNALS, signals);
  }

  /** Stale completion evidence from an earlier run must not end this one. */
  clearRunEvidence(): void {
    this.saveExitSignals(emptyExitSignals());
    rmSync(RESPONSE_ANALYSIS.path(this.paths), { force: true });
  }

  /** The loops of `ralph queue run` count their calls in one place (shared-rate.ts). */
  useSharedRate(shared: SharedRate): void {
    this.sharedRate = shared;
  }

  loadRate(): RateState {
    const own = loadDocument(this.paths, RATE_LIMIT, this.warn);
    return this.sharedRate ? this.sharedRate.view(own) : own;
  }

  saveRate(state: RateState): void {
    saveDocument(this.paths, RATE_LIMIT, state);
    const shared = this.sharedRate;
    if (!shared) return;
    // Written in the background, one write after another: the loop never stops for the shared file's lock.
    // Until a write lands, this loop's view of the window adds its own unwritten calls (SharedRate.view).
    this.sharedWrites = this.sharedWrites
      .then(() => shared.record(state, Date.now()))
      .then(
        () => undefined,
        (error: unknown) => this.warn(`could not count the call in the queue's shared hourly budget: ${(error as Error).message}`),
      );
  }

  refreshRate(current: RateState): RateState {
    return this.sharedRate ? this.sharedRate.view(current) : current;
  }

  nextCallId(): string | undefined {
    const reserved = this.reservedCall;
    this.reservedCall = undefined;
    return reserved ?? this.sharedRate?.nextCallId();
  }

  async reserveSharedCall(nowMs: number, maxCallsPerHour: number): Promise<boolean> {
    if (!this.sharedRate) return true;
    // The reservation's identity is the call's: when the call is recorded it takes the reserved place.
    try {
      this.reservedCall = await this.sharedRate.reserve(nowMs, maxCallsPerHour);
    } catch (error) {
      // The shared file could not be locked: the call is still counted when it is recorded.
      this.warn(`could not reserve the call in the queue's shared hourly budget: ${(error as Error).message}`);
      return true;
    }
    return this.reservedCall !== undefined;
  }

  /** Resolves once every call is written to the shared hourly budget (before the loop lets go of its lock). */
  settleSharedRate(): Promise<void> {
    return this.sharedWrites;
  }

  saveAnalysis(analysis: Analysis, outputFile: string, nowMs: number): void {
    saveDocument(this.paths, RESPONSE_ANALYSIS, {
      loop_number: analysis.loop,
      timestamp: isoTimestamp(nowMs),
      output_file: outputFile,
      output_format: analysis.mode,
      analysis: {
        has_completion_signal: analysis.hasCompletionSignal,
        is_test_only: analysis.isTestOnly,
        is_stuck: analysis.isStuck,
        has_progress: analysis.hasProgress,
        files_modified: analysis.filesModified,
        confidence_score: analysis.confidenceScore,
        exit_signal: analysis.exitSignal,
        work_summary: analysis.workSummary,
        output_length: analysis.outputLength,
        has_permission_denials: analysis.hasPermissionDenials,
        permission_denial_count: analysis.permissionDenialCount,
        denied_commands: analysis.deniedCommands,
        has_compound_command_limitation: analysis.hasCompoundCommandLimitation,
        compound_command_count: analysis.compoundCommandCount,
        asking_questions: analysis.askingQuestions,
        question_count: analysis.questionCount,
        status: analysis.status ?? null,
        exit_signal_explicit: analysis.exitSignalExplicit,
        work_type: analysis.workType ?? null,
        tests_status: analysis.testsStatus ?? null,
        tasks_completed: analysis.tasksCompleted ?? null,
        recommendation: analysis.recommendation ?? null,
        progress_sources: analysis.progressSources,
        error_lines: analysis.errorLines,
        warnings: analysis.warnings,
      },
    });
  }

  /** Error lines of recent iterations, newest first (stuck-loop detection across restarts). */
  loadErrorHistory(): string[][] {
    return loadDocument(this.paths, ITERATION_HISTORY, this.warn).error_lines;
  }

  saveErrorHistory(history: readonly string[][]): void {
    saveDocument(this.paths, ITERATION_HISTORY, { error_lines: history.slice(0, ITERATION_HISTORY_LIMIT) });
  }

  /** The fix plan as the agent left it; a plan that is a link out of the project stops the run (readProjectText). */
  readFixPlan(optionalSections: readonly string[]): FixPlanSummary | undefined {
    let text: string | undefined;
    try {
      text = readProjectText(this.paths.project, this.paths.fixPlan, 'The fix plan');
    } catch (error) {
      if (error instanceof RalphError) throw error;
      return undefined;
    }
    return text === undefined ? undefined : parseFixPlan(text, optionalSections);
  }

  /**
   * A dry run after a crash leaves status.json as the crashed run wrote it: the loop it reached is
   * read from there when that run is resumed (core/run-resume.ts), so a dry run must not replace it.
   */
  private statusKept = false;

  keepStatus(): void {
    this.statusKept = true;
  }

  writeStatus(doc: StatusDocument): void {
    if (this.statusKept) return;
    saveDocument(this.paths, STATUS, doc);
  }

  writeProgress(progress: Record<string, unknown>): void {
    writeJsonDocument(PROGRESS.path(this.paths), progress);
  }

  appendMetrics(line: Record<string, unknown>): void {
    appendLine(this.paths.metrics, JSON.stringify(line));
  }

  resetLiveLog(header: string): void {
    if (this.liveLog) this.liveLog.restart(header);
    else this.liveLog = LiveLogFile.start(this.paths.liveLog, header, this.liveLogMaxBytes, this.deferLiveFlush);
    this.liveRedactor = new StreamRedactor(currentRedactors().text);
  }

  /**
   * Appends agent output. A secret can arrive split across two stream events, so
   * the text goes through one redactor per call, which holds back a short tail
   * until the next piece (or `endLiveLog`) shows whether it was part of one.
   */
  appendLiveLog(text: string): void {
    this.liveRedactor ??= new StreamRedactor(currentRedactors().text);
    this.liveLog ??= LiveLogFile.append(this.paths.liveLog, this.liveLogMaxBytes, this.deferLiveFlush);
    this.liveLog.write(this.liveRedactor.write(text));
  }

  /**
   * Lets out what the redactor still holds at the end of a call and writes live.log out. The
   * file stays open for the next call to start over in (LiveLogFile.restart) until `close`.
   */
  endLiveLog(): void {
    const rest = this.liveRedactor?.end() ?? '';
    this.liveRedactor = undefined;
    if (rest !== '') this.liveLog ??= LiveLogFile.append(this.paths.liveLog, this.liveLogMaxBytes, this.deferLiveFlush);
    this.liveLog?.write(rest);
    this.liveLog?.flush();
  }

  /** Writes out and lets go of the files the store holds open; at the end of a run. */
  close(): void {
    this.liveLog?.close();
    this.liveLog = undefined;
  }

  /**
   * A forced exit (Ctrl+C twice) skips the loop's end, where status.json says
   * how the run ended: it is said here instead, so the file never reads
   * `running` for a loop that is gone. Only a status this process wrote is changed.
   */
  markForcedExit(pid: number, nowMs: number, exitCode: number): void {
    const read = readDocument(this.paths, STATUS);
    if (read.kind !== 'ok' || read.value.pid !== pid) return;
    saveDocument(this.paths, STATUS, {
      ...read.value,
      timestamp: isoTimestamp(nowMs),
      status: 'interrupted',
      last_action: 'interrupted',
      exit_reason: 'interrupted',
      exit_code: exitCode,
      message: 'forced exit: Ctrl+C pressed again while the loop was stopping',
    });
  }

  /** Writes the live output held so far, for an exit that cannot wait for the call's end. */
  flushLiveLog(): void {
    this.liveLog?.flush();
  }

  readAgentSession(): StoredAgentSession | undefined {
    return readAgentSession(this.paths);
  }

  rememberAgentSession(sessionId: string, backend: string, nowMs: number): void {
    rememberAgentSession(this.paths, sessionId, backend, nowMs);
  }

  forgetAgentSession(): void {
    rmSync(this.paths.claudeSession, { force: true });
  }

  /** Forgets the agent session and its completion evidence, recording why. */
  resetSession(reason: string, loop: number, nowMs: number): void {
    resetSession(this.paths, reason, loop, nowMs, this.warn);
  }

  touchRalphSession(nowMs: number): void {
    touchRalphSession(this.paths, nowMs, this.warn);
  }

  /** Files the loop cannot run without (checked before every iteration), relative to the project. */
  missingProjectFiles(taskMode: boolean, promptPath: string): string[] {
    const required = taskMode ? [this.paths.dir] : [this.paths.dir, ...requiredProjectFiles(this.paths, promptPath)];
    return required.filter((p) => !existsSync(p)).map((p) => relative(this.paths.project, p) || '.');
  }

  rotateLogs(): void {
    try {
      rotateLogIfNeeded(this.paths.ralphLog);
    } catch (error) {
      this.warn(`could not rotate ralph.log: ${(error as Error).message}`);
    }
  }

  newOutputLogPath(loop: number, nowMs: number): string {
    return outputLogPath(this.paths.logsDir, nowMs, loop);
  }

  pruneOutputLogs(): void {
    pruneOutputLogs(this.paths.logsDir, undefined, undefined, this.outputLogs);
  }

  loadGate(): GateState | undefined {
    return loadDocument(this.paths, VERIFY_GATE, this.warn);
  }

  saveGate(state: GateState): void {
    saveDocument(this.paths, VERIFY_GATE, state);
  }

  /** The answer `ralph --gate-action` left for a paused gate, consumed once. */
  takeGateAction(): GateAction | undefined {
    let text: string;
    try {
      text = readRegularFile(this.paths.gateAction, 'utf8');
    } catch {
      return undefined;
    }
    rmSync(this.paths.gateAction, { force: true });
    const action = parseGateAction(text);
    if (!action) this.warn(`.gate_action held "${text.trim().slice(0, 40)}", not retry, skip or abort; ignored`);
    return action;
  }

  stopRequested(): boolean {
    try {
      readRegularFile(this.paths.stopRequest);
      return true;
    } catch {
      return false;
    }
  }

  clearStopRequest(): void {
    rmSync(this.paths.stopRequest, { force: true });
  }
}
