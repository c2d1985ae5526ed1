import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockBackend } from '../../../../src/backends/mock/mock-backend.js';
import { toEventRecord } from '../../../../src/cli/loop/event-log-recorder.js';
import { noticeLine } from '../../../../src/cli/loop/notice-lines.js';
import type { RalphConfig } from '../../../../src/config/keys.js';
import { loadConfig } from '../../../../src/config/load-config.js';
import type { ProgressFacts } from '../../../../src/core/response-analyzer.js';
import type { VerifyOutcome } from '../../../../src/core/verify-feedback.js';
import type { VerifySettings } from '../../../../src/config/verify-settings.js';
import { runLoop, type LoopResult } from '../../../../src/engine/loop-controller.js';
import type { LoopDeps, LoopOptions, TaskMode } from '../../../../src/engine/loop-deps.js';
import type { LoopEvent, NoticeCode } from '../../../../src/engine/loop-events.js';
import type { CheckpointPort, EngineIo, ProgressProbe, Question } from '../../../../src/engine/ports.js';
import { VerifyGateStep } from '../../../../src/engine/verify-gate-step.js';
import type { AgentRequest, ProcessRunner } from '../../../../src/ports.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { ManualClock } from './manual-clock.js';
import { MemoryStore } from './memory-store.js';

/** A RALPH_STATUS block, as the agent ends its answer. */
export function statusBlock(fields: Record<string, string> = {}): string {
  const all = { STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false', WORK_TYPE: 'IMPLEMENTATION', ...fields };
  return ['---RALPH_STATUS---', ...Object.entries(all).map(([k, v]) => `${k}: ${v}`), '---END_RALPH_STATUS---'].join('\n');
}

/** A mock response that works and says it is not done. */
export const working = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ output: `Working.\n${statusBlock()}`, ...extra });
/** A mock response that says the work is done. */
export const done = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  output: `All done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`,
  ...extra,
});

/** Progress as the probe measures it: each measure() takes the next entry, then `otherwise`. */
export class FakeProbe implements ProgressProbe {
  readonly method = 'git' as const;
  changes: Array<Partial<ProgressFacts>> = [];
  otherwise: Partial<ProgressFacts> = { filesChanged: 1, changedFiles: ['work.txt'] };
  invalidated = 0;
  async begin(): Promise<void> {}
  async measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>> {
    const change = this.changes.shift() ?? this.otherwise;
    return { method: 'git', filesChanged: 0, changedFiles: [], committed: false, ...change };
  }
  invalidate(): void {
    this.invalidated += 1;
  }
}

type RollbackResult = Awaited<ReturnType<CheckpointPort['rollback']>>;

/** Checkpoints that remember what was asked of them. */
export class FakeCheckpoints implements CheckpointPort {
  created: number[] = [];
  dropped: string[] = [];
  rolledBack: string[] = [];
  pruned = 0;
  createFails: string | undefined;
  rollbackResult: RollbackResult = {
    ok: true,
    restored: true,
    attemptRef: 'refs/ralph/attempts/1',
    reverted: ['work.txt'],
    restoreCommand: 'git checkout refs/ralph/attempts/1 -- <file>',
    headMoved: false,
    refsMoved: [],
    refsLeft: [],
    notes: [],
  };
  async create(loop: number): Promise<{ ok: true; id: string } | { ok: false; reason: string }> {
    if (this.createFails) return { ok: false, reason: this.createFails };
    this.created.push(loop);
    return { ok: true, id: `cp-${loop}` };
  }
  async drop(id: string): Promise<void> {
    this.dropped.push(id);
  }
  async rollback(id: string): Promise<RollbackResult> {
    this.rolledBack.push(id);
    return this.rollbackResult;
  }
  async prune(): Promise<void> {
    this.pruned += 1;
  }
}

export interface GateOptions {
  command?: string;
  /** Each run of the verify command takes the next result; passes once they are used up. */
  results?: boolean[];
  maxAttempts?: number;
  rollbackOnFail?: boolean;
  checkpoint?: boolean;
  checkpoints?: FakeCheckpoints;
  onExhausted?: VerifySettings['onExhausted'];
  /** --backup: checkpoints kept for `ralph --restore`, none required. */
  backup?: boolean;
}

export interface HarnessOptions {
  /** The project directory of an earlier harness (a second run in the same project). */
  dir?: string;
  responses?: unknown[];
  config?: Partial<RalphConfig>;
  /** State a previous run left; a new one by default. */
  store?: MemoryStore;
  clock?: ManualClock;
  probe?: FakeProbe;
  gate?: GateOptions;
  tty?: boolean;
  /** Answers to the loop's questions, in order; the default choice once they run out. */
  answers?: string[];
  task?: TaskMode;
  dryRun?: boolean;
  /** The usage-limit jitter's random number. */
  random?: number;
  fixPlan?: string;
  /** --review: the mock backend reviews too (its `hat: "reviewer"` responses), shown this diff. */
  review?: { diff?: string; base?: string };
  /** A run resumed after a crash (what the command restores from the receipts and status.json). */
  resume?: LoopOptions['resume'];
}

function outcome(passed: boolean, command: string): VerifyOutcome {
  return {
    command,
    passed,
    exitCode: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    durationMs: 120,
    stdout: passed ? 'ok' : '',
    stderr: passed ? '' : 'FAIL: 1 test failed',
  };
}

const noRunner: ProcessRunner = { run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 0 }) };

/** The defaults a user gets, with these values changed. */
export function configWith(values: Partial<RalphConfig> = {}): RalphConfig {
  return { ...loadConfig({ env: {}, flags: {} }).config, pauseSeconds: 0, ...values };
}

/** One loop over the mock backend, a manual clock, an in-memory store and fakes; it collects every event. */
export function loopHarness(o: HarnessOptions = {}) {
  const dir = o.dir ?? tempDir('ralph-engine-');
  const config = configWith(o.config);
  const scriptPath = join(dir, 'mock_responses.json');
  writeFileSync(scriptPath, JSON.stringify({ responses: o.responses ?? [] }));
  const fixPlanPath = join(dir, 'fix_plan.md');
  if (o.fixPlan !== undefined) writeFileSync(fixPlanPath, o.fixPlan);
  const store = o.store ?? new MemoryStore({ project: dir, outputDir: dir }, () => (existsSync(fixPlanPath) ? readFileSync(fixPlanPath, 'utf8') : undefined));
  const clock = o.clock ?? new ManualClock();
  const probe = o.probe ?? new FakeProbe();
  const abort = new AbortController();
  const events: LoopEvent[] = [];
  const asked: Array<Question<string>> = [];
  const answers = [...(o.answers ?? [])];
  const io: EngineIo = {
    clock,
    emit: (event) => events.push(event),
    questions: {
      tty: o.tty ?? false,
      ask: async <T extends string>(q: Question<T>): Promise<T> => {
        asked.push(q);
        const answer = answers.shift();
        return (q.choices as readonly string[]).includes(answer ?? '') ? (answer as T) : q.defaultChoice;
      },
    },
    interrupt: abort.signal,
  };
  const backend = new MockBackend({ scriptPath, projectDir: dir, fixPlanPath, optionalSections: config.optionalSections, runner: noRunner, clock });
  const deps: LoopDeps = {
    ...io,
    backend,
    store,
    probe,
    random: { next: () => o.random ?? 0.5 },
  };
  /** Every agent call's request, the worker's and the reviewer's, in order. */
  const requests: AgentRequest[] = [];
  const run = backend.run.bind(backend);
  backend.run = (request, signal) => {
    requests.push(request);
    return run(request, signal);
  };
  if (o.review) {
    const shown = o.review;
    deps.review = {
      backend,
      runDiff: async () => ({ diff: shown.diff ?? 'diff --git a/work.txt b/work.txt\n+work', ...(shown.base ? { base: shown.base } : {}) }),
      planText: () => (existsSync(fixPlanPath) ? readFileSync(fixPlanPath, 'utf8') : undefined),
    };
  }
  const verifyRuns: boolean[] = [...(o.gate?.results ?? [])];
  let checkpoints: FakeCheckpoints | undefined;
  if (o.gate) {
    const g = o.gate;
    const command = g.command ?? 'npm test';
    checkpoints = g.checkpoint === false ? undefined : (g.checkpoints ?? new FakeCheckpoints());
    const settings: VerifySettings = {
      command,
      enabled: command !== '',
      preset: null,
      timeoutMs: 60_000,
      maxAttempts: g.maxAttempts ?? 3,
      cwd: dir,
      env: {},
      checkpoint: checkpoints !== undefined && g.backup !== true,
      checkpointKeep: 5,
      rollbackOnFail: g.rollbackOnFail ?? false,
      onExhausted: g.onExhausted ?? 'abort',
      sources: { timeout: 'default', maxAttempts: 'default' },
      warnings: [],
    };
    deps.gate = new VerifyGateStep({
      ...io,
      settings,
      runCommand: async () => outcome(verifyRuns.shift() ?? true, command),
      ...(checkpoints ? { checkpoints } : {}),
      keepCheckpoints: 5,
      keepPassed: g.backup ?? false,
      store,
    });
  }
  return {
    dir,
    config,
    store,
    clock,
    probe,
    deps,
    events,
    asked,
    abort,
    checkpoints,
    requests,
    backend,
    run: (): Promise<LoopResult> =>
      runLoop(deps, {
        config,
        promptPath: join(dir, 'PROMPT.md'),
        readPrompt: () => 'Do the work.',
        dryRun: o.dryRun ?? false,
        pid: 4242,
        ...(o.task ? { task: o.task } : {}),
        ...(o.resume ? { resume: o.resume } : {}),
      }),
    /** The events session.jsonl records, by name. */
    recorded: (): string[] => events.flatMap((e) => toEventRecord(e)?.[0] ?? []),
    /** The notices of this code, as the terminal presenter words them. */
    notices: (code?: NoticeCode): string[] =>
      events.flatMap((e) => (e.type === 'notice' && (code === undefined || e.code === code) ? [noticeLine(e, backend.displayName).text] : [])),
    of: <K extends LoopEvent['type']>(type: K): Array<Extract<LoopEvent, { type: K }>> =>
      events.filter((e): e is Extract<LoopEvent, { type: K }> => e.type === type),
  };
}
