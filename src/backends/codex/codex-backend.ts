import type { AgentBackend } from '../../ports.js';
import type { AgentProcessHost } from '../agent-process.js';
import type { CliCallSettings } from '../cli-agent/argv.js';
import { CliAgentBackend, type AgentCli } from '../cli-agent/cli-agent.js';
import { CODEX_AGENT } from './codex-agent.js';
import { buildCodexArgs, redactCodexArgs, runsInCodexSandbox } from './codex-args.js';
import { createCodexProgressReader } from './codex-progress.js';
import { toCodexResult } from './codex-result.js';
import { CodexStreamReader, type CodexStream } from './codex-stream.js';
import type { SessionWindowsReader } from './codex-session-windows.js';
import type { ThreadUsageStore } from './codex-thread-usage.js';
import { toRateLimitWindows } from './codex-windows.js';

export interface CodexCliOptions {
  /** The model asked for among them ('' = the one Codex's config or default picks). */
  settings: CliCallSettings;
  /** The model the tokens are priced at ('' = unknown: no cost). */
  pricedModel?: string;
  /** Names in `env` Codex needs and the commands it runs must not see. */
  hiddenEnv?: readonly string[];
  /** Where the last thread's token totals are kept between calls (and runs of Ralph). */
  threadUsage?: ThreadUsageStore;
  /** Where the windows a call's stdout did not carry are read (the thread's session file). */
  sessionWindows?: SessionWindowsReader;
  /** The time a usage limit's reset is measured from (default: the system clock). */
  now?: () => number;
  /** The zone Codex prints reset times in (default: this machine's). */
  timeZone?: string;
}

export type CodexBackendOptions = CodexCliOptions & AgentProcessHost;

/** The Codex CLI (`codex exec --json`): its argv, its JSONL reader and its classifier. */
export function codexCli(o: CodexCliOptions): AgentCli<CodexStream> {
  return {
    name: CODEX_AGENT.name,
    displayName: CODEX_AGENT.displayName,
    commandLabel: 'Codex',
    buildCall(request) {
      const invocation = buildCodexArgs(o.settings, request, o.hiddenEnv);
      return { ...invocation, shown: redactCodexArgs(invocation) };
    },
    /** Codex streams its JSONL events whether or not anyone watches them live. */
    describeOutput: () => 'codex-jsonl',
    createReader(onProgress) {
      const progress = createCodexProgressReader();
      return new CodexStreamReader(onProgress ? (event) => progress.read(event).forEach(onProgress) : undefined);
    },
    classify(run, request) {
      const usageBefore = request.resumeSessionId ? o.threadUsage?.before(request.resumeSessionId) : undefined;
      const nowMs = (o.now ?? Date.now)();
      const result = toCodexResult(
        run,
        {
          model: o.pricedModel ?? o.settings.model,
          ...(usageBefore ? { usageBefore } : {}),
          sandboxed: request.readOnly === true || runsInCodexSandbox(o.settings.extraArgs),
        },
        nowMs,
        () => o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      );
      const thread = run.output.output;
      if (result.rateLimitWindows === undefined && thread.threadId !== undefined && o.sessionWindows) {
        // A second of slack: the session file's clock and this one are read at different moments.
        const windows = o.sessionWindows(thread.threadId, nowMs - run.durationMs - 1000);
        if (windows.length > 0) result.rateLimitWindows = toRateLimitWindows(windows, nowMs);
      }
      if (thread.threadId !== undefined && thread.threadUsage !== undefined) o.threadUsage?.remember(thread.threadId, thread.threadUsage);
      return result;
    },
  };
}

/** Runs the real Codex CLI (`codex exec --json`), one process (group) per iteration. */
export function codexBackend(options: CodexBackendOptions): AgentBackend {
  return new CliAgentBackend(codexCli(options), options);
}
