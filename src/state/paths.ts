import { join, resolve } from 'node:path';
import { PROJECT_FILES } from '../core/project-layout.js';
import { locateRuntimeDir } from './runtime-dir.js';

/**
 * The single list of Ralph's files in a project. Names and shapes are
 * shared with the original so other tools that read `.ralph/` keep working.
 */
export interface RalphPaths {
  project: string;
  dir: string;
  prompt: string;
  fixPlan: string;
  agent: string;
  specs: string;
  ralphrc: string;
  logsDir: string;
  status: string;
  progress: string;
  liveLog: string;
  circuitState: string;
  circuitHistory: string;
  responseAnalysis: string;
  exitSignals: string;
  rateLimit: string;
  callCount: string;
  tokenCount: string;
  lastReset: string;
  claudeSession: string;
  /** The Codex backend's token totals of the thread it continues (Codex reports a thread's running totals). */
  codexThreadUsage: string;
  ralphSession: string;
  ralphSessionHistory: string;
  /** Out of the agent's reach (see runtime-dir.ts): the lock, its holder, what the run started. */
  runtimeDir: string;
  lockTarget: string;
  lockFile: string;
  pidFile: string;
  runFile: string;
  stopRequest: string;
  gateState: string;
  gateAction: string;
  iterationHistory: string;
  ralphLog: string;
  metrics: string;
  sessionRecording: string;
  /** Exit code of the loop `ralph --monitor` started in tmux, for the command that attached to it. */
  monitorExit: string;
  /** The task queue of `ralph queue` (items, their state and results). */
  queue: string;
  /** One receipt per iteration (docs/receipts-and-resume.md). */
  receipts: string;
}

/** The paths under the run-time directory, by their name in RalphPaths: the directory itself, or a file in it. */
const RUNTIME_PATHS = [
  ['runtimeDir', ''],
  ['lockTarget', ''],
  ['lockFile', 'loop.lock'],
  ['pidFile', 'loop.pid'],
  ['runFile', 'run.json'],
] as const;

type RuntimePath = (typeof RUNTIME_PATHS)[number][0];

export function ralphPaths(projectDir: string): RalphPaths {
  const project = resolve(projectDir);
  const dir = join(project, PROJECT_FILES.dir);
  const logsDir = join(project, PROJECT_FILES.logsDir);
  const paths: Omit<RalphPaths, RuntimePath> = {
    project,
    dir,
    prompt: join(project, PROJECT_FILES.prompt),
    fixPlan: join(project, PROJECT_FILES.fixPlan),
    agent: join(project, PROJECT_FILES.agent),
    specs: join(project, PROJECT_FILES.specs),
    ralphrc: join(project, PROJECT_FILES.ralphrc),
    logsDir,
    status: join(dir, 'status.json'),
    progress: join(dir, 'progress.json'),
    liveLog: join(dir, 'live.log'),
    circuitState: join(dir, '.circuit_breaker_state'),
    circuitHistory: join(dir, '.circuit_breaker_history'),
    responseAnalysis: join(dir, '.response_analysis'),
    exitSignals: join(dir, '.exit_signals'),
    rateLimit: join(dir, '.rate_limit_state'),
    callCount: join(dir, '.call_count'),
    tokenCount: join(dir, '.token_count'),
    lastReset: join(dir, '.last_reset'),
    claudeSession: join(dir, '.claude_session_id'),
    codexThreadUsage: join(dir, 'codex_thread_usage.json'),
    ralphSession: join(dir, '.ralph_session'),
    ralphSessionHistory: join(dir, '.ralph_session_history'),
    stopRequest: join(dir, '.stop'),
    gateState: join(dir, '.verify_gate'),
    gateAction: join(dir, '.gate_action'),
    iterationHistory: join(dir, '.iteration_history'),
    ralphLog: join(logsDir, 'ralph.log'),
    metrics: join(logsDir, 'metrics.jsonl'),
    sessionRecording: join(logsDir, 'session.jsonl'),
    monitorExit: join(dir, '.monitor_exit_code'),
    queue: join(dir, 'queue.json'),
    receipts: join(logsDir, 'receipts.jsonl'),
  };
  // Finding the run-time directory walks up to the repository, resolves real paths and may
  // create the directory: only what reaches the lock pays for it (the monitor never does).
  let runtimeDir: string | undefined;
  const runtime = (): string => (runtimeDir ??= locateRuntimeDir(project));
  for (const [name, file] of RUNTIME_PATHS) {
    Object.defineProperty(paths, name, { enumerable: true, get: () => (file === '' ? runtime() : join(runtime(), file)) });
  }
  return paths as RalphPaths;
}

/**
 * The loop's files that are not JSON documents (those are listed in
 * documents.ts): the live view, the original's counters, the agent's session
 * id and the one-shot requests to a running loop.
 */
export function loopScratchFiles(p: RalphPaths): string[] {
  return [p.liveLog, p.callCount, p.tokenCount, p.lastReset, p.claudeSession, p.stopRequest, p.gateAction];
}
