import type { AgentBackend, AgentRequest } from '../../ports.js';
import { writeFileAtomic } from '../../state/json-file.js';
import type { AgentProcessHost } from '../agent-process.js';
import type { CliCallSettings } from '../cli-agent/argv.js';
import { CliAgentBackend, type AgentCli } from '../cli-agent/cli-agent.js';
import { GEMINI_AGENT } from './gemini-agent.js';
import { buildGeminiArgs, redactGeminiArgs } from './gemini-args.js';
import { buildGeminiPolicy, buildGeminiReadOnlyPolicy } from './gemini-policy.js';
import { toGeminiResult } from './gemini-result.js';
import { GeminiStreamReader, type GeminiOutput } from './gemini-stream.js';

export interface GeminiCliOptions {
  settings: CliCallSettings;
  /** Ralph's ALLOWED_TOOLS, turned into a Gemini policy per call. */
  allowedTools: readonly string[];
  /** The time a quota's "retry in" is measured from (default: the system clock). */
  now?: () => number;
}

export type GeminiBackendOptions = GeminiCliOptions & AgentProcessHost;

/** The policy file of a call, beside its output log (the record of what that call was allowed). */
export function policyPathFor(outputLogPath: string): string {
  return `${outputLogPath.replace(/\.log$/, '')}.policy.toml`;
}

/** The Gemini CLI headless: its argv (with the call's policy file), its stream-json reader and its classifier. */
export function geminiCli(o: GeminiCliOptions): AgentCli<GeminiOutput> {
  const readOnly = GEMINI_AGENT.readOnly ?? { about: '' };
  const policyOf = (request: AgentRequest): string =>
    request.readOnly
      ? buildGeminiReadOnlyPolicy(readOnly.tools ?? [], readOnly.deniedTools ?? []).toml
      : buildGeminiPolicy(request.allowedTools ?? o.allowedTools).toml;
  return {
    name: GEMINI_AGENT.name,
    displayName: GEMINI_AGENT.displayName,
    commandLabel: 'Gemini',
    buildCall(request) {
      const policy = policyOf(request);
      // A dry run has no call log to put the policy beside: it names what the file would hold.
      const policyPath = policy ? (request.outputLogPath ? policyPathFor(request.outputLogPath) : '<ALLOWED_TOOLS policy>') : undefined;
      const invocation = buildGeminiArgs(o.settings, request, policyPath);
      return { ...invocation, shown: redactGeminiArgs(invocation) };
    },
    describeOutput: () => 'stream-json',
    createReader: (onProgress) => new GeminiStreamReader(onProgress),
    setUp(request) {
      const policy = policyOf(request);
      if (policy) writeFileAtomic(policyPathFor(request.outputLogPath), policy);
      return {};
    },
    classify: (run) => toGeminiResult(run, (o.now ?? Date.now)()),
  };
}

/** Runs the real Gemini CLI headless, one process (group) per iteration. */
export function geminiBackend(options: GeminiBackendOptions): AgentBackend {
  return new CliAgentBackend(geminiCli(options), options);
}
