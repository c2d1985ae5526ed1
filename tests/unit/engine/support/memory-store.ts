import { appendHistory, initialCircuit, type CircuitHistoryEntry, type CircuitState, type Transition } from '../../../../src/core/circuit-breaker.js';
import { emptyExitSignals, type ExitSignals } from '../../../../src/core/exit-signals.js';
import { parseFixPlan, type FixPlanSummary } from '../../../../src/core/fix-plan.js';
import { emptyRateState, type RateState } from '../../../../src/core/rate-limiter.js';
import type { Analysis } from '../../../../src/core/response-analyzer.js';
import type { StoredAgentSession } from '../../../../src/core/agent-session-expiry.js';
import type { GateAction, GateState } from '../../../../src/core/verify-gate.js';
import type { GateStorePort, LoopStorePort } from '../../../../src/engine/ports.js';

/** The loop's .ralph/ state in memory; what a run leaves behind is there for the next run of a test. */
export class MemoryStore implements LoopStorePort, GateStorePort {
  circuit: CircuitState | undefined;
  history: CircuitHistoryEntry[] = [];
  signals: ExitSignals = emptyExitSignals();
  rate: RateState = emptyRateState();
  analysis: Analysis | undefined;
  errorHistory: string[][] = [];
  session: StoredAgentSession | undefined;
  sessionResets: string[] = [];
  stop = false;
  missing: string[] = [];
  gate: GateState | undefined;
  gateAnswers: GateAction[] = [];
  outputLogs = 0;
  /** How often fix_plan.md was read. */
  planReads = 0;

  constructor(
    readonly paths: { project: string; outputDir: string },
    /** Reads fix_plan.md where the agent may change it (the mock backend ticks tasks on disk). */
    private readonly readPlanText: () => string | undefined,
  ) {}

  loadCircuit(nowMs: number): CircuitState {
    return this.circuit ?? initialCircuit(nowMs);
  }
  saveCircuit(state: CircuitState): void {
    this.circuit = state;
  }
  recordCircuitTransition(transition: Transition, loop: number, nowMs: number): void {
    this.history = appendHistory(this.history, transition, loop, nowMs);
  }
  saveExitSignals(signals: ExitSignals): void {
    this.signals = signals;
  }
  clearRunEvidence(): void {
    this.signals = emptyExitSignals();
    this.analysis = undefined;
  }
  loadRate(): RateState {
    return this.rate;
  }
  saveRate(state: RateState): void {
    this.rate = state;
  }
  saveAnalysis(analysis: Analysis): void {
    this.analysis = analysis;
  }
  loadErrorHistory(): string[][] {
    return this.errorHistory;
  }
  saveErrorHistory(history: readonly string[][]): void {
    this.errorHistory = history.slice(0, 5);
  }
  readFixPlan(optionalSections: readonly string[]): FixPlanSummary | undefined {
    this.planReads += 1;
    const text = this.readPlanText();
    return text === undefined ? undefined : parseFixPlan(text, optionalSections);
  }
  readAgentSession(): StoredAgentSession | undefined {
    return this.session;
  }
  rememberAgentSession(sessionId: string, backend: string, nowMs: number): void {
    if (this.session?.sessionId !== sessionId || this.session.backend !== backend) this.session = { sessionId, createdAt: nowMs, backend };
  }
  forgetAgentSession(): void {
    this.session = undefined;
  }
  resetSession(reason: string): void {
    this.session = undefined;
    this.sessionResets.push(reason);
  }
  touchRalphSession(): void {}
  missingProjectFiles(): string[] {
    return this.missing;
  }
  rotateLogs(): void {}
  newOutputLogPath(loop: number): string {
    this.outputLogs += 1;
    return `${this.paths.outputDir}/claude_output_${loop}_${this.outputLogs}.log`;
  }
  pruneOutputLogs(): void {}
  stopRequested(): boolean {
    return this.stop;
  }
  clearStopRequest(): void {
    this.stop = false;
  }

  // The gate store: .verify_gate and the answer `ralph --gate-action` leaves.
  load(): GateState | undefined {
    return this.gate;
  }
  save(state: GateState): void {
    this.gate = state;
  }
  takeAction(): GateAction | undefined {
    return this.gateAnswers.shift();
  }
}
