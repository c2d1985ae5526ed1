import type { AgentProgress, AgentResult } from '../../agent-result.js';
import type { AgentBackend, AgentRequest } from '../../ports.js';
import type { AgentProcessHost } from '../agent-process.js';
import { runAgentProcess } from '../agent-process.js';
import type { CliRun } from './cli-run.js';

/** The command line of one call. */
export interface CliCall {
  file: string;
  args: readonly string[];
  /** Written to the CLI's stdin (a prompt too long or too odd for an argument). */
  input?: string;
  /** The argv for logs and --dry-run: the prompt and context replaced by their sizes. */
  shown: string;
  /** The environment of this call, when it is more than the backend's own (per-call permissions). */
  env?: NodeJS.ProcessEnv;
}

/** Reads a CLI's stdout as it arrives; `end` gives what it made of the whole. */
export interface CliReader<O> {
  write(text: string): void;
  end(): O;
}

/** What a call needs around its process: more environment, and what to undo once it is over. */
export interface CliCallSetup {
  env?: NodeJS.ProcessEnv;
  cleanup?: () => void;
}

/**
 * One agent CLI as data and functions: how a call's argv is built, how its stdout is read (with
 * the progress events it gives while it runs) and what a finished run amounted to. Everything
 * else (process group, time limit, output log, sandbox, refusals) is the same for every agent
 * and lives in CliAgentBackend.
 */
export interface AgentCli<O> {
  readonly name: string;
  /** How messages name the agent ("Codex CLI"). */
  readonly displayName: string;
  /** How the debug log names its command line ("Codex command: …"). */
  readonly commandLabel: string;
  /** The command line of one call; pure, so --dry-run can show it. */
  buildCall(request: AgentRequest): CliCall;
  /** The output format the call asks for, for --dry-run and the call record. */
  describeOutput(request: AgentRequest): string;
  /** A reader of one call's stdout, reporting progress events as it reads (when someone listens). */
  createReader(onProgress?: (event: AgentProgress) => void, request?: AgentRequest): CliReader<O>;
  /** Side effects a call needs before its process starts (a policy file, a temp folder). */
  setUp?(request: AgentRequest, call: CliCall): CliCallSetup;
  /** The neutral result of a finished run: its outcome judged by the agent's own rules. */
  classify(run: CliRun<O>, request: AgentRequest): AgentResult;
}

/**
 * The one backend of every agent CLI: builds the call, runs it through runAgentProcess (its own
 * process group, time limit, redacted output log, sandbox) with the agent's reader on stdout,
 * and hands the run to the agent's classifier.
 */
export class CliAgentBackend<O> implements AgentBackend {
  readonly name: string;
  readonly displayName: string;

  constructor(
    private readonly cli: AgentCli<O>,
    private readonly host: AgentProcessHost,
  ) {
    this.name = cli.name;
    this.displayName = cli.displayName;
  }

  describe(request: AgentRequest): string {
    return this.cli.buildCall(request).shown;
  }

  describeOutput(request: AgentRequest): string {
    return this.cli.describeOutput(request);
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const run = await this.runProcess(request, signal);
    return this.cli.classify(run, request);
  }

  private async runProcess(request: AgentRequest, signal: AbortSignal): Promise<CliRun<O>> {
    const { cli, host } = this;
    const call = cli.buildCall(request);
    host.logger.debug(`${cli.commandLabel} command: ${call.shown}`);
    const reader = cli.createReader(request.onProgress, request);
    const setup = cli.setUp?.(request, call) ?? {};
    try {
      const env = { ...(call.env ?? host.env), ...setup.env };
      const { outcome, durationMs } = await runAgentProcess(request, signal, {
        logger: host.logger,
        outputRedactor: host.outputRedactor,
        ...(host.sandbox !== undefined ? { sandbox: host.sandbox } : {}),
        ...(host.killGraceMs !== undefined ? { killGraceMs: host.killGraceMs } : {}),
        ...(host.outputLogCap !== undefined ? { outputLogCap: host.outputLogCap } : {}),
        file: call.file,
        args: call.args,
        ...(call.input !== undefined ? { input: call.input } : {}),
        env,
        read: (text) => reader.write(text),
      });
      const run: CliRun<O> = { end: outcome.end, exitCode: outcome.exitCode, durationMs, output: reader.end(), stderrTail: outcome.stderrTail };
      if (outcome.signal !== undefined) run.signal = outcome.signal;
      if (outcome.failure !== undefined) {
        run.end = 'spawn_failed';
        run.exitCode = undefined;
        run.failure = outcome.failure;
        run.fatal = outcome.failure.startsWith('command not found');
      } else run.details = { argv: call.shown };
      return run;
    } finally {
      setup.cleanup?.();
    }
  }
}
