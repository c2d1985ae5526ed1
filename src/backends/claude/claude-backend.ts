import type { AgentProgress } from '../../agent-result.js';
import type { AgentBackend, AgentRequest } from '../../ports.js';
import type { AgentProcessHost } from '../agent-process.js';
import type { CliCallSettings } from '../cli-agent/argv.js';
import { CliAgentBackend, type AgentCli } from '../cli-agent/cli-agent.js';
import { CLAUDE_AGENT } from './claude-agent.js';
import { buildClaudeArgs, redactArgs, type ClaudeArgsOptions } from './claude-args.js';
import type { ClaudeOutput } from './claude-output.js';
import { createClaudeProgressReader } from './claude-progress.js';
import { toAgentResult } from './claude-result.js';
import { OutputScanner } from './output-scanner.js';

export interface ClaudeCliOptions {
  settings: CliCallSettings;
  outputFormat: 'json' | 'text';
  /**
   * Ask for stream-json even without --live, for the subscription windows only its
   * rate_limit_events carry (--park-at, --stop-at); what the user sees stays as with json.
   */
  readWindows?: boolean;
  allowedTools: readonly string[];
  /** The time a usage limit's reset is measured from (default: the system clock). */
  now?: () => number;
  /** The zone of a reset time Claude gives without one (default: this machine's). */
  timeZone?: string;
}

const CLAUDE_READ_ONLY = CLAUDE_AGENT.readOnly ?? { about: '' };

export type ClaudeBackendOptions = ClaudeCliOptions & AgentProcessHost;

/** The Claude Code CLI: its argv, its JSON reader and its classifier. */
export function claudeCli(o: ClaudeCliOptions): AgentCli<ClaudeOutput> {
  const describeOutput = (request: AgentRequest): ClaudeArgsOptions['format'] => (request.live || o.readWindows ? 'stream-json' : o.outputFormat);
  /** Stream-json read for its windows alone: no partial messages, and only the progress a json call gives. */
  const windowsOnly = (request: AgentRequest | undefined): boolean => o.readWindows === true && request !== undefined && !request.live;
  return {
    name: CLAUDE_AGENT.name,
    displayName: CLAUDE_AGENT.displayName,
    commandLabel: 'Claude',
    buildCall(request) {
      const invocation = buildClaudeArgs(o.settings, request, {
        format: describeOutput(request),
        ...(windowsOnly(request) ? { partialMessages: false } : {}),
        ...(request.readOnly
          ? { allowedTools: CLAUDE_READ_ONLY.tools ?? [], deniedTools: CLAUDE_READ_ONLY.deniedTools ?? [] }
          : { allowedTools: request.allowedTools ?? o.allowedTools }),
      });
      return { ...invocation, shown: redactArgs(invocation) };
    },
    describeOutput,
    createReader(onProgress, request) {
      const progress = createClaudeProgressReader();
      const report = onProgress && windowsOnly(request) ? asJsonCallReports(onProgress) : onProgress;
      return new OutputScanner(report ? (event) => progress.read(event).forEach(report) : undefined);
    },
    classify(run) {
      const now = o.now ?? Date.now;
      return toAgentResult(run, now(), () => o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    },
  };
}

/** The progress a json call reports (its session, its end, a usage limit): the terminal shows no more of a stream read for its windows. */
function asJsonCallReports(onProgress: (event: AgentProgress) => void): (event: AgentProgress) => void {
  return (event) => {
    if (event.kind === 'session_started' || event.kind === 'finished' || event.kind === 'usage_limit') onProgress(event);
  };
}

/** Runs the real Claude Code CLI, one process (group) per iteration. */
export function claudeBackend(options: ClaudeBackendOptions): AgentBackend {
  return new CliAgentBackend(claudeCli(options), options);
}
