import { StringDecoder } from 'node:string_decoder';
import { buildClaudeArgs, redactArgs, type Invocation } from '../core/claude-args.js';
import { BoundedTail } from '../core/bounded-tail.js';
import { OutputScanner } from '../core/output-scanner.js';
import { describeProcesses } from '../core/process-selection.js';
import { spawnGroup } from '../infra/process-group.js';
import { CappedLog, type LogCap } from '../state/capped-log.js';
import { writeFileAtomic } from '../state/json-file.js';
import { currentRedactors } from '../state/redaction.js';
import type { AgentBackend, AgentEnd, AgentRequest, AgentRun, Logger } from '../ports.js';

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

const STDERR_TAIL = 16 * 1024;
/**
 * Once the agent and everything it started are gone, how long its pipes may
 * still deliver data. Only a process that left the tree and dropped Ralph's
 * marker can hold them longer, and it must not keep the loop from going on.
 */
const DRAIN_MS = 1000;

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
    const stderr = new BoundedTail(STDERR_TAIL);
    const log = new CappedLog(request.outputLogPath, o.outputLogCap, currentRedactors().bytes);
    const decoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');

    let proc: ReturnType<typeof spawnGroup>;
    try {
      proc = spawnGroup(invocation.file, invocation.args, { cwd: request.cwd, env: o.env, role: 'agent' });
    } catch (error) {
      log.close();
      return this.failedStart(String((error as Error).message), started, scanner);
    }
    let spawnError: string | undefined;
    proc.child.once('error', (error) => {
      spawnError = (error as NodeJS.ErrnoException).code === 'ENOENT' ? `command not found: ${invocation.file}` : error.message;
    });
    proc.child.stdout?.on('data', (buf: Buffer) => {
      log.write(buf);
      const text = decoder.write(buf);
      scanner.write(text);
      request.onOutput?.(text);
    });
    proc.child.stderr?.on('data', (buf: Buffer) => stderr.write(errDecoder.write(buf)));

    let end: AgentEnd = 'exited';
    const grace = o.killGraceMs ?? 5000;
    const timer = setTimeout(() => {
      end = 'timeout';
      void proc.terminate(grace);
    }, request.timeoutMs);
    const onAbort = (): void => {
      if (end === 'exited') end = 'interrupted';
      void proc.terminate(grace);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    const { exitCode, signal: killSignal } = await proc.exited;
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // Whatever the agent started and left running (a dev server, a watcher, a
    // Bash tool command in a session of its own) ends with the call.
    const stopped = (await proc.terminate(grace)).filter((p) => p.pid !== proc.child.pid);
    if (stopped.length > 0) o.logger.info(`Stopped ${stopped.length} process${stopped.length === 1 ? '' : 'es'} the agent left running: ${describeProcesses(stopped)}`);
    await Promise.all([drain(proc.child.stdout), drain(proc.child.stderr)]);
    const tail = decoder.end();
    if (tail) scanner.write(tail);
    log.close();
    if (log.cutBytes > 0) o.logger.warn(`The agent printed more than the output log keeps; ${log.cutBytes} bytes were cut from the middle of ${request.outputLogPath}.`);
    const stderrText = stderr.value() + errDecoder.end();
    if (stderrText.trim()) writeFileAtomic(request.outputLogPath.replace(/\.log$/, '.stderr.log'), stderrText);

    if (spawnError !== undefined) return this.failedStart(spawnError, started, scanner);
    const run: AgentRun = {
      end,
      exitCode,
      durationMs: Date.now() - started,
      output: scanner.end(),
      stderrTail: stderrText,
      details: { argv: redactArgs(invocation) },
    };
    if (killSignal !== undefined) run.signal = killSignal;
    return run;
  }

  private failedStart(message: string, started: number, scanner: OutputScanner): AgentRun {
    return { end: 'spawn_failed', exitCode: undefined, durationMs: Date.now() - started, output: scanner.end(), stderrTail: '', failure: message, fatal: message.startsWith('command not found') };
  }
}

/** Waits briefly for a stream to deliver what is left, then closes it. */
async function drain(stream: NodeJS.ReadableStream | null | undefined): Promise<void> {
  if (!stream) return;
  const readable = stream as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean; destroy?: () => void };
  if (readable.readableEnded || readable.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      // Something outside the agent's tree still holds the pipe: an open pipe would keep Ralph from exiting.
      readable.destroy?.();
      resolve();
    }, DRAIN_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    readable.once('end', done);
    readable.once('close', done);
  });
}
