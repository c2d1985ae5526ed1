import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, RalphError } from '../../errors.js';
import type { FlagValues } from '../../config/load-config.js';
import type { RalphConfig } from '../../config/keys.js';
import { LOCK_LOST } from '../../core/exit-reasons.js';
import { runLoop, type LoopResult } from '../../engine/loop-controller.js';
import type { LoopDeps, TaskMode } from '../../engine/loop-deps.js';
import type { LoopEvent } from '../../engine/loop-events.js';
import type { EngineIo, Question } from '../../engine/ports.js';
import { readProjectText } from '../../state/project-file-read.js';
import { createProcessRunner } from '../../infra/process-runner.js';
import { createProgressProbe } from '../../infra/progress-probe.js';
import { startRunGuard, type RunGuard } from '../../infra/run-guard.js';
import { systemClock } from '../../infra/system-clock.js';
import { LoopStore } from '../../state/loop-store.js';
import { SharedRate, sharedRateFile } from '../../state/shared-rate.js';
import { ralphPaths } from '../../state/paths.js';
import { acquireProjectLock } from '../../state/project-lock.js';
import { createLogger } from '../../ui/logger.js';
import { loadProjectConfig } from '../load-project-config.js';
import { ignoreTaskState } from '../../state/task-state-ignore.js';
import { assertPromptFlagFile, assertRalphProject } from '../project-check.js';
import { checkTaskFolder } from '../task-project.js';
import { backendEntry, type BackendContext } from '../../backends/registry.js';
import { currentRedactors } from '../../state/redaction.js';
import { createLoopNotifier } from './observers.js';
import { ExitGuard } from './exit-guard.js';
import { capabilityWarnings } from '../../backends/capability-warnings.js';
import { createGate } from './gate-factory.js';
import { createReviewPort } from './review-factory.js';
import { createLoopSubscribers } from '../loop/loop-subscribers.js';
import { prepareProjectRepository } from '../../checkpoints/index.js';
import { verifyPlacementNotice, verifyRunsContained } from '../../config/verify-placement.js';
import { checkRalphrcChange, reportRalphrcChangedDuringRun } from './ralphrc-check.js';
import { startOrResumeRun } from './run-resume.js';
import { startLoopSandbox, sweepSandboxLeftovers, type LoopSandbox } from './loop-sandbox.js';
import { claimProcessSandbox } from './sandbox-claim.js';

/**
 * Where a loop's words go and who may stop it: the terminal and signals for the `ralph`
 * command, the caller's callbacks and AbortSignal for the library. Everything else about
 * starting a loop is the same for both, and lives in startLoopSession.
 */
export interface LoopFrontEnd {
  /** Whether a person answers questions (a changed .ralphrc, a paused verify gate). */
  tty: boolean;
  /** The lines a person watching reads (the terminal presenter and the log lines); the agent's --live output comes as bytes. */
  write: (text: string | Uint8Array) => void;
  /** No log lines on `write` (ralph.log still gets them). */
  quiet: boolean;
  color?: boolean;
  columns?: number;
  /** Asks the person at the terminal; only called when `tty`. `signal` ends the wait for an answer. */
  ask?<T extends string>(question: Question<T>, signal?: AbortSignal): Promise<T>;
  /** The command line that runs this loop again, for advice after an interruption. */
  restartCommand: string;
  /** Hears every event after the run's own subscribers (files, terminal, notifications). */
  onEvent?: (event: LoopEvent) => void;
  /**
   * Connects what stops the run (signals, the caller's AbortSignal) once the run holds its
   * lock and store; returns the disconnection, called when the run ends.
   */
  attach?(run: { abort: AbortController; exitGuard: ExitGuard; store: LoopStore }): () => void;
}

export interface LoopSessionInput {
  cwd: string;
  env: NodeJS.ProcessEnv;
  flags: FlagValues;
  dryRun: boolean;
  /** Start a new run even when the last one crashed (otherwise it is resumed with its counters). */
  fresh?: boolean;
  /** Task mode (`ralph run`); its verify options are already in `flags`. */
  task?: TaskMode;
  allowNoGit?: boolean;
  acceptConfigChange?: boolean;
  frontEnd: LoopFrontEnd;
}

/**
 * Starts one loop in a project: checks the project and the agent, takes the project lock,
 * wires the real dependencies and the subscribers, runs the loop, and releases everything
 * again. The one way to start a loop: `ralph` and `import { runLoop } from 'ralph-ts'` both
 * come here, so the library cannot drift from the command.
 */
export async function startLoopSession(input: LoopSessionInput): Promise<LoopResult> {
  const { env, frontEnd } = input;
  const paths = ralphPaths(input.cwd);
  const loaded = loadProjectConfig(paths, env, input.flags);
  const config: RalphConfig = loaded.config;
  const promptPath = resolve(paths.project, config.promptFile);
  const runner = createProcessRunner();
  const promptFlag = input.flags.promptFile;
  if (!input.task) {
    assertPromptFlagFile(typeof promptFlag === 'string' ? promptFlag : undefined, promptPath);
    assertRalphProject(paths, promptPath);
  }
  const creatingState = input.task ? await checkTaskFolder(paths, runner, input.allowNoGit === true) : undefined;
  mkdirSync(paths.logsDir, { recursive: true });
  if (creatingState) ignoreTaskState(paths);

  const clock = systemClock;
  const tty = frontEnd.tty;
  const logger = createLogger({
    clock,
    logFile: paths.ralphLog,
    verbose: config.verbose,
    write: frontEnd.write,
    quiet: frontEnd.quiet,
    ...(frontEnd.color !== undefined ? { color: frontEnd.color } : {}),
  });
  if (creatingState) logger.warn(creatingState);
  for (const warning of loaded.warnings) logger.warn(warning);
  const ask = tty ? frontEnd.ask?.bind(frontEnd) : undefined;
  await checkRalphrcChange({
    paths,
    env,
    logger,
    accept: input.acceptConfigChange === true,
    ...(ask
      ? { confirm: async (question) => (await ask({ question, choices: ['yes', 'no'], defaultChoice: 'no', timeoutMs: CONFIRM_TIMEOUT_MS })) === 'yes' }
      : {}),
  });
  const agent = backendEntry(config.backend);
  // The process's redactors, read once here and handed to every part of the loop that redacts: they grow
  // with the secrets learnt later (the sandbox's proxy password), so each part asks for them as it writes.
  const redactors = currentRedactors;
  const backendContext: BackendContext = { config, paths, runner, clock, logger, env, outputRedactor: () => redactors().bytes };
  // The probe only asks git where the repository is (read-only, nothing written), so it runs
  // while the agent's CLI answers its version check instead of after it.
  const probeReady = createProgressProbe(paths.project, runner);
  // Held until the loop needs it; a failure before then must not also surface as an unhandled rejection.
  probeReady.catch(() => undefined);
  if (!input.dryRun) await agent.preflight?.(backendContext);
  for (const warning of capabilityWarnings(agent, config)) logger.warn(warning);

  const lock = await acquireProjectLock(paths, (error) => {
    logger.error(`The project lock ${paths.lockFile} was lost (${error.message}).`);
    abort.abort(LOCK_LOST);
  });
  const abort = new AbortController();
  const exitGuard = new ExitGuard();
  const store = new LoopStore(paths, (m) => logger.warn(m));
  const sharedRate = sharedRateFile(env, paths.project);
  if (sharedRate) store.useSharedRate(new SharedRate(sharedRate));
  const detach = frontEnd.attach?.({ abort, exitGuard, store });
  let guard: RunGuard | undefined;
  let sandbox: LoopSandbox | undefined;
  let releaseSandbox: (() => void) | undefined;
  try {
    const fresh = input.fresh === true || env['RALPH_FRESH'] === '1';
    const run = startOrResumeRun(store, { fresh, dryRun: input.dryRun, now: clock.now(), task: taskIdentity(input.task) }, logger);
    if (run.keepLeftBehind) store.keepStatus();
    else guard = await startRunGuard(paths.runFile, logger, run.runId, run.kind);
    await sweepSandboxLeftovers(paths.project, runner, logger);
    if (config.sandbox && !input.dryRun) {
      releaseSandbox = claimProcessSandbox(paths.project);
      sandbox = await startLoopSandbox(config, paths.project, env, runner, logger, abort.signal);
    }
    const readPrompt = (): string => {
      const text = readProjectText(paths.project, promptPath, 'The prompt file');
      if (input.task && !text) return taskPrompt(input.task);
      if (text === undefined)
        throw new RalphError(
          `Prompt file not found: ${promptPath}`,
          ExitCode.RuntimeError,
          'Restore it (ralph-enable creates only the missing files) or pass --prompt FILE.',
        );
      return input.task ? `${text}\n\n${taskPrompt(input.task)}` : text;
    };
    const probe = await probeReady;
    const subscribers = createLoopSubscribers({
      config,
      clock,
      logger,
      store,
      notifier: createLoopNotifier(config.notify, runner),
      backend: config.backend,
      pid: process.pid,
      tty,
      write: frontEnd.write,
      ...(frontEnd.columns ? { columns: frontEnd.columns } : {}),
      restartCommand: frontEnd.restartCommand,
      receiptRun: { runId: run.runId, startLoop: run.startLoop },
      redactor: () => redactors().text,
    });
    const listener = frontEnd.onEvent;
    // A listener that throws stops the run as an interruption would, its state saved; the run then fails with that error.
    let listenerFailure: { error: unknown } | undefined;
    const io: EngineIo = {
      clock,
      emit: listener
        ? (event) => {
            subscribers(event);
            if (listenerFailure) return;
            try {
              listener(event);
            } catch (error) {
              listenerFailure = { error };
              abort.abort(LISTENER_FAILED);
            }
          }
        : subscribers,
      questions: {
        tty,
        ask: (question) => {
          if (!ask) return Promise.resolve(question.defaultChoice);
          return ask(question, abort.signal);
        },
      },
      interrupt: abort.signal,
    };
    const agentContext = sandbox ? { ...backendContext, sandbox: sandbox.session } : backendContext;
    const deps: LoopDeps = {
      ...io,
      backend: await agent.create(agentContext),
      store,
      probe,
      random: { next: Math.random },
    };
    const review = await createReviewPort(agentContext, deps.backend, input.dryRun);
    if (review) deps.review = review;
    // A rollback a crash cut short is finished before anything else looks at the tree.
    await prepareProjectRepository(paths.project, (m) => logger.warn(m));
    const gate = await createGate(config, loaded.origins, {
      io,
      runner,
      logger,
      store,
      env,
      exitGuard,
      redactor: () => redactors().text,
      ...(sandbox && verifyRunsContained(config) ? { contain: sandbox.session } : {}),
    });
    if (gate) deps.gate = gate;
    const placement = verifyPlacementNotice(config, loaded.origins, gate !== undefined);
    if (placement) logger[placement.level](placement.text);
    const result = await runLoop(deps, {
      config,
      promptPath,
      readPrompt,
      dryRun: input.dryRun,
      pid: process.pid,
      ...(input.task ? { task: input.task } : {}),
      ...(run.resume ? { resume: run.resume } : {}),
    });
    if (listenerFailure) throw listenerFailure.error;
    return result;
  } finally {
    reportRalphrcChangedDuringRun({ paths, env, logger });
    detach?.();
    try {
      await sandbox?.stop();
    } finally {
      releaseSandbox?.();
    }
    guard?.stop();
    store.close();
    await store.settleSharedRate();
    await lock.release();
  }
}

/** The interruption's cause when an onEvent listener threw (the `signal` of loop.stop and status.json). */
export const LISTENER_FAILED = 'onEvent threw';

/** How long the question about a changed .ralphrc waits before it counts as a no. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

/** What makes a `ralph run` the same task again: its text and its criteria (core/run-kind.ts digests it). */
function taskIdentity(task: TaskMode | undefined): string | undefined {
  return task ? JSON.stringify([task.text, task.criteria]) : undefined;
}

/** The prompt of task mode when the project has no PROMPT.md of its own. */
function taskPrompt(task: TaskMode): string {
  return [
    `You are working autonomously on this task: ${task.text}`,
    ...(task.criteria.length > 0 ? ['', 'Requirements:', ...task.criteria.map((c) => `- ${c}`)] : []),
    '',
    'Work in the current directory. Do not ask questions; choose the safe default and proceed.',
    'End every answer with this block:',
    '---RALPH_STATUS---',
    'STATUS: IN_PROGRESS | COMPLETE | BLOCKED',
    'FILES_MODIFIED: <number>',
    'WORK_TYPE: IMPLEMENTATION | TESTING | DOCUMENTATION | REFACTORING',
    'EXIT_SIGNAL: false | true   (true only when the task is fully done)',
    'RECOMMENDATION: <one line>',
    '---END_RALPH_STATUS---',
  ].join('\n');
}
