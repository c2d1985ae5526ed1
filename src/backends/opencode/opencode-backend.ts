import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentResult } from '../../agent-result.js';
import type { AgentBackend, AgentRequest, Logger } from '../../ports.js';
import type { LogCap } from '../../state/capped-log.js';
import { runAgentProcess } from '../agent-process.js';
import type { OpencodeRun } from './classify-opencode-call.js';
import { buildOpencodeArgs, describeOpencodeInvocation, type OpencodeInvocation } from './opencode-args.js';
import { OpencodeEventReader } from './opencode-output.js';
import { opencodePermissions } from './opencode-permissions.js';
import { toOpencodeResult } from './opencode-result.js';

export interface OpencodeBackendOptions {
  command: readonly string[];
  /** "provider/model"; empty for OpenCode's own default. */
  model: string;
  extraArgs?: readonly string[];
  /** Ralph's allowed tools, mapped to OpenCode permission rules. */
  allowedTools: readonly string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Time between SIGTERM and SIGKILL when the agent must stop. */
  killGraceMs?: number;
  /** Size limit of each per-call output log (default 10 MB, the last 1 MB kept). */
  outputLogCap?: LogCap;
  /** The time a limit's reset is measured from (default: the system clock). */
  now?: () => number;
}

/**
 * What OpenCode must not do on its own in an unattended loop: update itself between two
 * iterations, or publish the session. Set unless the user's environment says otherwise.
 */
const UNATTENDED_ENV = { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' };

/** Runs the real OpenCode CLI (`opencode run`), one process (group) per iteration. */
export class OpencodeBackend implements AgentBackend {
  readonly name = 'opencode';
  readonly displayName = 'OpenCode';

  constructor(private readonly options: OpencodeBackendOptions) {}

  private invocation(request: AgentRequest): OpencodeInvocation {
    const o = this.options;
    return buildOpencodeArgs({
      command: o.command,
      model: o.model,
      ...(o.extraArgs ? { extraArgs: o.extraArgs } : {}),
      ...(request.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
      loop: request.loop,
      loopContext: request.loopContext,
      prompt: request.prompt,
    });
  }

  private environment(request: AgentRequest): NodeJS.ProcessEnv {
    const permissions = opencodePermissions(request.allowedTools ?? this.options.allowedTools);
    const env: NodeJS.ProcessEnv = { ...UNATTENDED_ENV, ...this.options.env };
    if (permissions) env['OPENCODE_PERMISSION'] = JSON.stringify(permissions);
    return env;
  }

  describe(request: AgentRequest): string {
    return describeOpencodeInvocation(this.invocation(request));
  }

  describeOutput(): string {
    return 'json';
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const run = await this.runProcess(request, signal);
    return toOpencodeResult(run, this.options.model, (this.options.now ?? Date.now)());
  }

  private async runProcess(request: AgentRequest, signal: AbortSignal): Promise<OpencodeRun> {
    const o = this.options;
    const invocation = this.invocation(request);
    o.logger.debug(`OpenCode command: ${describeOpencodeInvocation(invocation)}`);
    const reader = new OpencodeEventReader(request.onProgress);
    // OpenCode unpacks a 5 MB native library into the temporary directory at every start and
    // leaves it there: a long loop would fill /tmp. Each call gets a temporary directory of its
    // own, removed with all it holds when the call is over.
    const callTmp = mkdtempSync(join(tmpdir(), 'ralph-opencode-'));
    try {
      return await this.runIn(callTmp, invocation, reader, request, signal);
    } finally {
      rmSync(callTmp, { recursive: true, force: true });
    }
  }

  private async runIn(
    callTmp: string,
    invocation: OpencodeInvocation,
    reader: OpencodeEventReader,
    request: AgentRequest,
    signal: AbortSignal,
  ): Promise<OpencodeRun> {
    const o = this.options;
    const { outcome, durationMs } = await runAgentProcess(request, signal, {
      file: invocation.file,
      args: invocation.args,
      input: invocation.input,
      env: { ...this.environment(request), TMPDIR: callTmp },
      logger: o.logger,
      ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
      ...(o.outputLogCap !== undefined ? { outputLogCap: o.outputLogCap } : {}),
      read: (text) => reader.write(text),
    });
    const base = { durationMs, output: reader.end(), stderrTail: outcome.stderrTail };
    if (outcome.failure !== undefined) {
      return {
        ...base,
        end: 'spawn_failed',
        exitCode: undefined,
        stderrTail: '',
        failure: outcome.failure,
        fatal: outcome.failure.startsWith('command not found'),
      };
    }
    const run: OpencodeRun = { ...base, end: outcome.end, exitCode: outcome.exitCode, details: { argv: describeOpencodeInvocation(invocation) } };
    if (outcome.signal !== undefined) run.signal = outcome.signal;
    return run;
  }
}
