import type { AgentResult } from '../../agent-result.js';
import type { AgentBackend, AgentRequest, Logger } from '../../ports.js';
import type { LogCap } from '../../state/capped-log.js';
import { writeFileAtomic } from '../../state/json-file.js';
import { runAgentProcess } from '../agent-process.js';
import type { GeminiRun } from './classify-gemini-call.js';
import { buildGeminiArgs, redactGeminiArgs, type Invocation } from './gemini-args.js';
import { buildGeminiPolicy } from './gemini-policy.js';
import { toGeminiResult } from './gemini-result.js';
import { GeminiStreamReader } from './gemini-stream.js';

export interface GeminiBackendOptions {
  command: readonly string[];
  model: string;
  extraArgs: readonly string[];
  /** Ralph's ALLOWED_TOOLS, turned into a Gemini policy per call. */
  allowedTools: readonly string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  killGraceMs?: number;
  outputLogCap?: LogCap;
  /** The time a quota's "retry in" is measured from (default: the system clock). */
  now?: () => number;
}

/** The policy file of a call, beside its output log (the record of what that call was allowed). */
export function policyPathFor(outputLogPath: string): string {
  return `${outputLogPath.replace(/\.log$/, '')}.policy.toml`;
}

/** Runs the real Gemini CLI headless, one process (group) per iteration. */
export class GeminiBackend implements AgentBackend {
  readonly name = 'gemini';
  readonly displayName = 'Gemini CLI';

  constructor(private readonly options: GeminiBackendOptions) {}

  private plan(request: AgentRequest): { invocation: Invocation; policy: string } {
    const o = this.options;
    const policy = buildGeminiPolicy(request.allowedTools ?? o.allowedTools).toml;
    const invocation = buildGeminiArgs({
      command: o.command,
      model: o.model,
      extraArgs: o.extraArgs,
      // A dry run has no call log to put the policy beside: it names what the file would hold.
      ...(policy ? { policyPath: request.outputLogPath ? policyPathFor(request.outputLogPath) : '<ALLOWED_TOOLS policy>' } : {}),
      ...(request.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
      loopContext: request.loopContext,
      prompt: request.prompt,
    });
    return { invocation, policy };
  }

  describe(request: AgentRequest): string {
    return redactGeminiArgs(this.plan(request).invocation);
  }

  describeOutput(): string {
    return 'stream-json';
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const run = await this.runProcess(request, signal);
    return toGeminiResult(run, (this.options.now ?? Date.now)());
  }

  private async runProcess(request: AgentRequest, signal: AbortSignal): Promise<GeminiRun> {
    const o = this.options;
    const { invocation, policy } = this.plan(request);
    if (policy) writeFileAtomic(policyPathFor(request.outputLogPath), policy);
    o.logger.debug(`Gemini command: ${redactGeminiArgs(invocation)}`);
    const reader = new GeminiStreamReader(request.onProgress);
    const { outcome, durationMs } = await runAgentProcess(request, signal, {
      file: invocation.file,
      args: invocation.args,
      env: o.env,
      logger: o.logger,
      ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
      ...(o.outputLogCap !== undefined ? { outputLogCap: o.outputLogCap } : {}),
      read: (text) => reader.write(text),
    });
    const run: GeminiRun = {
      end: outcome.end,
      exitCode: outcome.exitCode,
      durationMs,
      output: reader.end(),
      stderrTail: outcome.stderrTail,
      details: { argv: redactGeminiArgs(invocation) },
    };
    if (outcome.signal !== undefined) run.signal = outcome.signal;
    if (outcome.failure !== undefined) {
      run.failure = outcome.failure;
      run.fatal = outcome.failure.startsWith('command not found');
    }
    return run;
  }
}
