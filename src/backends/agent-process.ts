import { describeProcesses } from '../core/process-selection.js';
import type { Redactor } from '../core/secret-redactor.js';
import { start, type CommandContainer, type ProcessOutcome } from '../infra/process.js';
import type { AgentRequest, Logger } from '../ports.js';
import { CappedLog, type LogCap } from '../state/capped-log.js';
import { writeFileAtomic } from '../state/json-file.js';

/** What every call of one agent CLI runs with, whatever the agent. */
export interface AgentProcessHost {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** The run's sandbox (--sandbox): every call is started through it. */
  sandbox?: CommandContainer;
  /**
   * The redactor of the call's output log (bytes read as latin1). Asked at each call, not once:
   * a secret Ralph learns while the loop runs (a sandbox proxy password) is kept out from then on.
   */
  outputRedactor: () => Redactor;
  /** Time between SIGTERM and SIGKILL when the agent must stop (default 5 s). */
  killGraceMs?: number;
  /** Size limit of the call's output log (default 10 MB, the last 1 MB kept). */
  outputLogCap?: LogCap;
}

/** How to start one agent CLI call and who reads what it prints. */
export interface AgentProcessSpec extends AgentProcessHost {
  file: string;
  args: readonly string[];
  /** Written to the CLI's stdin (a prompt too long or too odd for an argument). */
  input?: string;
  /** The backend's reader of the CLI's stdout, given each piece as it arrives. */
  read: (text: string) => void;
}

export interface AgentProcessEnd {
  outcome: ProcessOutcome;
  durationMs: number;
}

/**
 * Runs one agent CLI call the way every backend must: in a process group of its own that ends
 * with the call (timeout, Ctrl+C, or children left behind), stdout logged redacted to the call's
 * output log as it arrives and handed to the backend's reader and the live view, and the tail of
 * stderr kept beside the log; with --sandbox, contained, and what the sandbox refused it is
 * told through the request. What the output means is the backend's own business.
 */
export async function runAgentProcess(request: AgentRequest, signal: AbortSignal, spec: AgentProcessSpec): Promise<AgentProcessEnd> {
  const { logger } = spec;
  const started = Date.now();
  const log = new CappedLog(request.outputLogPath, spec.outputLogCap, spec.outputRedactor());
  const sandbox = spec.sandbox;
  const outcome = await start(spec.file, spec.args, {
    cwd: request.cwd,
    ...(sandbox ? { contain: sandbox } : {}),
    env: spec.env,
    ...(spec.input !== undefined ? { input: spec.input } : {}),
    role: 'agent',
    timeoutMs: request.timeoutMs,
    signal,
    killGraceMs: spec.killGraceMs ?? 5000,
    onStdout: (text, bytes) => {
      log.write(bytes);
      spec.read(text);
      request.onOutput?.(text);
    },
  });
  for (const refusal of outcome.refusals ?? []) request.onRefusal?.(refusal);
  const stopped = outcome.stopped;
  if (stopped.length > 0)
    logger.info(`Stopped ${stopped.length} process${stopped.length === 1 ? '' : 'es'} the agent left running: ${describeProcesses(stopped)}`);
  log.close();
  if (log.cutBytes > 0)
    logger.warn(`The agent printed more than the output log keeps; ${log.cutBytes} bytes were cut from the middle of ${request.outputLogPath}.`);
  // writeFileAtomic redacts what it writes.
  if (outcome.stderrTail.trim()) writeFileAtomic(request.outputLogPath.replace(/\.log$/, '.stderr.log'), outcome.stderrTail);
  return { outcome, durationMs: Date.now() - started };
}
