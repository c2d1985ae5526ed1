import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, RalphError } from '../../errors.js';
import type { RalphConfig } from '../../config/keys.js';
import { LOCK_LOST } from '../../core/exit-reasons.js';
import { runLoop } from '../../engine/loop-controller.js';
import type { LoopDeps, TaskMode } from '../../engine/loop-deps.js';
import type { EngineIo } from '../../engine/ports.js';
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
import { askChoice } from '../../ui/ask.js';
import { loadProjectConfig } from '../load-project-config.js';
import { shellCommand } from '../../core/shell-words.js';
import { ignoreTaskState } from '../../state/task-state-ignore.js';
import { assertPromptFlagFile, assertRalphProject } from '../project-check.js';
import { checkTaskFolder } from '../task-project.js';
import type { RalphArgs } from '../ralph-args.js';
import { backendEntry, type BackendContext } from '../../backends/registry.js';
import { currentRedactors } from '../../state/redaction.js';
import { createLoopNotifier } from './observers.js';
import { ExitGuard } from './exit-guard.js';
import { capabilityWarnings } from '../../backends/capability-warnings.js';
import { createGate } from './gate-factory.js';
import { createReviewPort } from './review-factory.js';
import { createStopSignalHandler } from './stop-signals.js';
import { createLoopSubscribers } from '../loop/loop-subscribers.js';
import { prepareProjectRepository } from '../../checkpoints/index.js';
import { verifyPlacementNotice, verifyRunsContained } from '../../config/verify-placement.js';
import { checkRalphrcChange, reportRalphrcChangedDuringRun } from './ralphrc-check.js';
import { startLoopSandbox, sweepSandboxLeftovers, type LoopSandbox } from './loop-sandbox.js';

/** How long the question about a changed .ralphrc waits before it counts as a no. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

export interface LoopCommandInput {
  args: RalphArgs;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Task mode (`ralph run`); its verify options are already in `args.flags`. */
  task?: TaskMode;
}

/**
 * `ralph` (and `ralph run`): checks the project and Claude, takes the project
 * lock, wires the real dependencies and runs the loop. Returns the exit code.
 */
export async function runLoopCommand(input: LoopCommandInput): Promise<number> {
  const { args, env } = input;
  const paths = ralphPaths(input.cwd);
  const loaded = loadProjectConfig(paths, env, args.flags);
  const config: RalphConfig = loaded.config;
  const promptPath = resolve(paths.project, config.promptFile);
  const runner = createProcessRunner();
  const promptFlag = args.flags.promptFile;
  if (!input.task) {
    assertPromptFlagFile(typeof promptFlag === 'string' ? promptFlag : undefined, promptPath);
    assertRalphProject(paths, promptPath);
  }
  const creatingState = input.task ? await checkTaskFolder(paths, runner, args.allowNoGit === true) : undefined;
  mkdirSync(paths.logsDir, { recursive: true });
  if (creatingState) ignoreTaskState(paths);

  const clock = systemClock;
  const tty = process.stdin.isTTY === true && process.stderr.isTTY === true;
  const logger = createLogger({ clock, logFile: paths.ralphLog, verbose: config.verbose });
  if (creatingState) logger.warn(creatingState);
  for (const warning of loaded.warnings) logger.warn(warning);
  await checkRalphrcChange({
    paths,
    env,
    logger,
    accept: args.acceptConfigChange === true,
    ...(tty
      ? { confirm: async (question) => (await askChoice({ question, choices: ['yes', 'no'], defaultChoice: 'no', timeoutMs: CONFIRM_TIMEOUT_MS })) === 'yes' }
      : {}),
  });
  const agent = backendEntry(config.backend);
  const backendContext: BackendContext = { config, paths, runner, clock, logger, env, outputRedactor: () => currentRedactors().bytes };
  // The probe only asks git where the repository is (read-only, nothing written), so it runs
  // while the agent's CLI answers its version check instead of after it.
  const probeReady = createProgressProbe(paths.project, runner);
  // Held until the loop needs it; a failure before then must not also surface as an unhandled rejection.
  probeReady.catch(() => undefined);
  if (!args.dryRun) await agent.preflight?.(backendContext);
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
  // A forced exit skips the call's end, where live.log is written out: what it holds goes out first.
  const forceExit = (code: number): never => {
    store.flushLiveLog();
    try {
      store.markForcedExit(process.pid, Date.now(), code);
    } catch {
      // The exit goes on: a status that cannot be written must not keep a forced exit waiting.
    }
    process.exit(code);
  };
  const onSignal = createStopSignalHandler({ abort, guard: exitGuard, write: (text) => process.stderr.write(text), exit: forceExit });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let guard: RunGuard | undefined;
  let sandbox: LoopSandbox | undefined;
  try {
    guard = await startRunGuard(paths.runFile, logger);
    await sweepSandboxLeftovers(paths.project, runner, logger);
    if (config.sandbox && !args.dryRun) sandbox = await startLoopSandbox(config, paths.project, env, runner, logger, abort.signal);
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
    const io: EngineIo = {
      clock,
      emit: createLoopSubscribers({
        config,
        clock,
        logger,
        store,
        notifier: createLoopNotifier(config.notify, runner),
        backend: config.backend,
        pid: process.pid,
        tty,
        write: (text) => process.stderr.write(text),
        ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
        // Advice to start again repeats this command line: `ralph run '<task>'` must not become the plan loop.
        restartCommand: shellCommand(['ralph', ...process.argv.slice(2)]),
      }),
      questions: {
        tty,
        ask: ({ preface, question, choices, defaultChoice, timeoutMs }) => {
          if (preface) process.stderr.write(preface);
          return askChoice({ question, choices, defaultChoice, timeoutMs, signal: abort.signal });
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
    const review = await createReviewPort(agentContext, deps.backend, args.dryRun);
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
      ...(sandbox && verifyRunsContained(config) ? { contain: sandbox.session } : {}),
    });
    if (gate) deps.gate = gate;
    const placement = verifyPlacementNotice(config, loaded.origins, gate !== undefined);
    if (placement) logger[placement.level](placement.text);
    const result = await runLoop(deps, {
      config,
      promptPath,
      readPrompt,
      dryRun: args.dryRun,
      pid: process.pid,
      ...(input.task ? { task: input.task } : {}),
    });
    return result.exitCode;
  } finally {
    reportRalphrcChangedDuringRun({ paths, env, logger });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await sandbox?.stop();
    guard?.stop();
    store.close();
    await store.settleSharedRate();
    await lock.release();
  }
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
