import type { AgentResult } from '../../agent-result.js';
import type { AgentBackend, AgentRequest, Logger } from '../../ports.js';
import type { LogCap } from '../../state/capped-log.js';
import { runAgentProcess } from '../agent-process.js';
import type { CodexRun } from './classify-codex-call.js';
import { buildCodexArgs, redactCodexArgs, runsInCodexSandbox, type CodexInvocation } from './codex-args.js';
import { createCodexProgressReader } from './codex-progress.js';
import { toCodexResult } from './codex-result.js';
import { CodexStreamReader } from './codex-stream.js';
import type { ThreadUsageStore } from './codex-thread-usage.js';

export interface CodexBackendOptions {
  command: readonly string[];
  /** The model asked for ('' = the one Codex's config or default picks). */
  model: string;
  /** The model the tokens are priced at ('' = unknown: no cost). */
  pricedModel?: string;
  effort: string;
  extraArgs: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Names in `env` Codex needs and the commands it runs must not see. */
  hiddenEnv?: readonly string[];
  logger: Logger;
  /** Where the last thread's token totals are kept between calls (and runs of Ralph). */
  threadUsage?: ThreadUsageStore;
  /** Time between SIGTERM and SIGKILL when the agent must stop. */
  killGraceMs?: number;
  /** Size limit of each per-call output log (default 10 MB, the last 1 MB kept). */
  outputLogCap?: LogCap;
  /** The time a usage limit's reset is measured from (default: the system clock). */
  now?: () => number;
  /** The zone Codex prints reset times in (default: this machine's). */
  timeZone?: string;
}

/** Runs the real Codex CLI (`codex exec --json`), one process (group) per iteration. */
export class CodexBackend implements AgentBackend {
  readonly name = 'codex';
  readonly displayName = 'Codex CLI';

  constructor(private readonly options: CodexBackendOptions) {}

  private invocation(request: AgentRequest): CodexInvocation {
    const o = this.options;
    return buildCodexArgs({
      command: o.command,
      model: o.model,
      effort: o.effort,
      extraArgs: o.extraArgs,
      ...(o.hiddenEnv ? { hiddenEnv: o.hiddenEnv } : {}),
      ...(request.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
      loopContext: request.loopContext,
      prompt: request.prompt,
    });
  }

  describe(request: AgentRequest): string {
    return redactCodexArgs(this.invocation(request));
  }

  /** Codex streams its JSONL events whether or not anyone watches them live. */
  describeOutput(): string {
    return 'codex-jsonl';
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const o = this.options;
    const run = await this.runProcess(request, signal);
    const usageBefore = request.resumeSessionId ? o.threadUsage?.before(request.resumeSessionId) : undefined;
    const now = o.now ?? Date.now;
    const result = toCodexResult(
      run,
      { model: o.pricedModel ?? o.model, ...(usageBefore ? { usageBefore } : {}), sandboxed: runsInCodexSandbox(o.extraArgs) },
      now(),
      () => o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
    const thread = run.stream.output;
    if (thread.threadId !== undefined && thread.threadUsage !== undefined) o.threadUsage?.remember(thread.threadId, thread.threadUsage);
    return result;
  }

  private async runProcess(request: AgentRequest, signal: AbortSignal): Promise<CodexRun> {
    const o = this.options;
    const invocation = this.invocation(request);
    const shown = redactCodexArgs(invocation);
    o.logger.debug(`Codex command: ${shown}`);
    const progress = createCodexProgressReader();
    const onProgress = request.onProgress;
    const reader = new CodexStreamReader(onProgress ? (event) => progress.read(event).forEach(onProgress) : undefined);
    const { outcome, durationMs } = await runAgentProcess(request, signal, {
      file: invocation.file,
      args: invocation.args,
      input: invocation.input,
      env: o.env,
      logger: o.logger,
      ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
      ...(o.outputLogCap !== undefined ? { outputLogCap: o.outputLogCap } : {}),
      read: (text) => reader.write(text),
    });
    const run: CodexRun = {
      end: outcome.end,
      exitCode: outcome.exitCode,
      durationMs,
      stream: reader.end(),
      stderrTail: outcome.stderrTail,
      details: { argv: shown },
    };
    if (outcome.signal !== undefined) run.signal = outcome.signal;
    if (outcome.failure !== undefined) {
      run.failure = outcome.failure;
      run.fatal = outcome.failure.startsWith('command not found');
      delete run.details;
    }
    return run;
  }
}
