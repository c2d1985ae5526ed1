import { buildClaudeArgs, redactArgs, type Invocation } from '../core/claude-args.js';
import { OutputScanner } from '../core/output-scanner.js';
import { describeProcesses } from '../core/process-selection.js';
import { start } from '../infra/process.js';
import { CappedLog, type LogCap } from '../state/capped-log.js';
import { writeFileAtomic } from '../state/json-file.js';
import { currentRedactors } from '../state/redaction.js';
import type { AgentBackend, AgentRequest, AgentRun, Logger } from '../ports.js';

export interface ClaudeBackendOptions {
  command: readonly string[];
  model: string;
  effort: string;
  outputFormat: 'json' | 'text';
  allowedTools: readonly string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Time between SIGTERM and SIGKILL when the agent must stop. */
  killGraceMs?: number;
  /** Size limit of each per-call output log (default 10 MB, the last 1 MB kept). */
  outputLogCap?: LogCap;
}

/** Runs the real Claude Code CLI, one process (group) per iteration. */
export class ClaudeBackend implements AgentBackend {
  readonly name = 'claude';

  constructor(private readonly options: ClaudeBackendOptions) {}

  private invocation(request: AgentRequest): Invocation {
    const o = this.options;
    return buildClaudeArgs({
      command: o.command,
      model: o.model,
      effort: o.effort,
      format: request.live ? 'stream-json' : o.outputFormat,
      allowedTools: o.allowedTools,
      ...(request.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
      loopContext: request.loopContext,
      prompt: request.prompt,
    });
  }

  describe(request: AgentRequest): string {
    return redactArgs(this.invocation(request));
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentRun> {
    const o = this.options;
    const invocation = this.invocation(request);
    o.logger.debug(`Claude command: ${redactArgs(invocation)}`);
    const started = Date.now();
    const scanner = new OutputScanner(request.onEvent);
    const log = new CappedLog(request.outputLogPath, o.outputLogCap, currentRedactors().bytes);
    const outcome = await start(invocation.file, invocation.args, {
      cwd: request.cwd,
      env: o.env,
      role: 'agent',
      timeoutMs: request.timeoutMs,
      signal,
      killGraceMs: o.killGraceMs ?? 5000,
      onStdout: (text, bytes) => {
        log.write(bytes);
        scanner.write(text);
        request.onOutput?.(text);
      },
    });
    const stopped = outcome.stopped;
    if (stopped.length > 0) o.logger.info(`Stopped ${stopped.length} process${stopped.length === 1 ? '' : 'es'} the agent left running: ${describeProcesses(stopped)}`);
    log.close();
    if (log.cutBytes > 0) o.logger.warn(`The agent printed more than the output log keeps; ${log.cutBytes} bytes were cut from the middle of ${request.outputLogPath}.`);
    const stderrText = outcome.stderrTail;
    if (stderrText.trim()) writeFileAtomic(request.outputLogPath.replace(/\.log$/, '.stderr.log'), stderrText);

    if (outcome.failure !== undefined) return this.failedStart(outcome.failure, started, scanner);
    const run: AgentRun = {
      end: outcome.end,
      exitCode: outcome.exitCode,
      durationMs: Date.now() - started,
      output: scanner.end(),
      stderrTail: stderrText,
      details: { argv: redactArgs(invocation) },
    };
    if (outcome.signal !== undefined) run.signal = outcome.signal;
    return run;
  }

  private failedStart(message: string, started: number, scanner: OutputScanner): AgentRun {
    return { end: 'spawn_failed', exitCode: undefined, durationMs: Date.now() - started, output: scanner.end(), stderrTail: '', failure: message, fatal: message.startsWith('command not found') };
  }
}
