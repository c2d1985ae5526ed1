import type { AgentResult } from '../../agent-result.js';
import type { AgentBackend, AgentRequest, Logger } from '../../ports.js';
import type { LogCap } from '../../state/capped-log.js';
import { runAgentProcess } from '../agent-process.js';
import { buildClaudeArgs, redactArgs, type ClaudeArgsOptions, type Invocation } from './claude-args.js';
import { createClaudeProgressReader } from './claude-progress.js';
import { toAgentResult } from './claude-result.js';
import type { ClaudeRun } from './classify-claude-call.js';
import { OutputScanner } from './output-scanner.js';

export interface ClaudeBackendOptions {
  command: readonly string[];
  model: string;
  effort: string;
  /** Arguments the user adds to every call. */
  extraArgs?: readonly string[];
  outputFormat: 'json' | 'text';
  allowedTools: readonly string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Time between SIGTERM and SIGKILL when the agent must stop. */
  killGraceMs?: number;
  /** Size limit of each per-call output log (default 10 MB, the last 1 MB kept). */
  outputLogCap?: LogCap;
  /** The time a usage limit's reset is measured from (default: the system clock). */
  now?: () => number;
  /** The zone of a reset time Claude gives without one (default: this machine's). */
  timeZone?: string;
}

/** Runs the real Claude Code CLI, one process (group) per iteration. */
export class ClaudeBackend implements AgentBackend {
  readonly name = 'claude';
  readonly displayName = 'Claude Code';

  constructor(private readonly options: ClaudeBackendOptions) {}

  private invocation(request: AgentRequest): Invocation {
    const o = this.options;
    return buildClaudeArgs({
      command: o.command,
      model: o.model,
      effort: o.effort,
      ...(o.extraArgs ? { extraArgs: o.extraArgs } : {}),
      format: this.describeOutput(request),
      allowedTools: request.allowedTools ?? o.allowedTools,
      ...(request.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
      loopContext: request.loopContext,
      prompt: request.prompt,
    });
  }

  describe(request: AgentRequest): string {
    return redactArgs(this.invocation(request));
  }

  describeOutput(request: AgentRequest): ClaudeArgsOptions['format'] {
    return request.live ? 'stream-json' : this.options.outputFormat;
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const run = await this.runProcess(request, signal);
    const now = this.options.now ?? Date.now;
    const zone = this.options.timeZone;
    return toAgentResult(run, now(), () => zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  }

  private async runProcess(request: AgentRequest, signal: AbortSignal): Promise<ClaudeRun> {
    const o = this.options;
    const invocation = this.invocation(request);
    o.logger.debug(`Claude command: ${redactArgs(invocation)}`);
    const started = Date.now();
    const progress = createClaudeProgressReader();
    const onProgress = request.onProgress;
    const scanner = new OutputScanner(onProgress ? (event) => progress.read(event).forEach(onProgress) : undefined);
    const { outcome, durationMs } = await runAgentProcess(request, signal, {
      file: invocation.file,
      args: invocation.args,
      env: o.env,
      logger: o.logger,
      ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
      ...(o.outputLogCap !== undefined ? { outputLogCap: o.outputLogCap } : {}),
      read: (text) => scanner.write(text),
    });
    if (outcome.failure !== undefined) return this.failedStart(outcome.failure, started, scanner);
    const run: ClaudeRun = {
      end: outcome.end,
      exitCode: outcome.exitCode,
      durationMs,
      output: scanner.end(),
      stderrTail: outcome.stderrTail,
      details: { argv: redactArgs(invocation) },
    };
    if (outcome.signal !== undefined) run.signal = outcome.signal;
    return run;
  }

  private failedStart(message: string, started: number, scanner: OutputScanner): ClaudeRun {
    return {
      end: 'spawn_failed',
      exitCode: undefined,
      durationMs: Date.now() - started,
      output: scanner.end(),
      stderrTail: '',
      failure: message,
      fatal: message.startsWith('command not found'),
    };
  }
}
