import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentBackend } from '../../ports.js';
import type { AgentProcessHost } from '../agent-process.js';
import type { CliCallSettings } from '../cli-agent/argv.js';
import { CliAgentBackend, type AgentCli } from '../cli-agent/cli-agent.js';
import { OPENCODE_AGENT } from './opencode-agent.js';
import { buildOpencodeArgs, describeOpencodeInvocation } from './opencode-args.js';
import { OpencodeEventReader, type OpencodeOutput } from './opencode-output.js';
import { opencodePermissions } from './opencode-permissions.js';
import { toOpencodeResult } from './opencode-result.js';

export interface OpencodeCliOptions {
  /** The model among them is "provider/model"; empty for OpenCode's own default. */
  settings: CliCallSettings;
  /** Ralph's allowed tools, mapped to OpenCode permission rules. */
  allowedTools: readonly string[];
  /** The agent's own environment, to which each call adds its permissions. */
  env: NodeJS.ProcessEnv;
  /** The time a limit's reset is measured from (default: the system clock). */
  now?: () => number;
}

export type OpencodeBackendOptions = OpencodeCliOptions & AgentProcessHost;

/**
 * What OpenCode must not do on its own in an unattended loop: update itself between two
 * iterations, or publish the session. Set unless the user's environment says otherwise.
 */
const UNATTENDED_ENV = { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' };

/** The OpenCode CLI (`opencode run`): its argv and permissions, its JSON event reader and its classifier. */
export function opencodeCli(o: OpencodeCliOptions): AgentCli<OpencodeOutput> {
  return {
    name: OPENCODE_AGENT.name,
    displayName: OPENCODE_AGENT.displayName,
    commandLabel: 'OpenCode',
    buildCall(request) {
      const invocation = buildOpencodeArgs(o.settings, request);
      // A read-only call keeps only reading and searching: edit, bash and the web are denied.
      const permissions = opencodePermissions(request.readOnly ? (OPENCODE_AGENT.readOnly?.tools ?? ['Read']) : (request.allowedTools ?? o.allowedTools));
      const env: NodeJS.ProcessEnv = { ...UNATTENDED_ENV, ...o.env };
      if (permissions) env['OPENCODE_PERMISSION'] = JSON.stringify(permissions);
      return { ...invocation, shown: describeOpencodeInvocation(invocation), env };
    },
    describeOutput: () => 'json',
    createReader: (onProgress) => new OpencodeEventReader(onProgress),
    // OpenCode unpacks a 5 MB native library into the temporary directory at every start and
    // leaves it there: a long loop would fill /tmp. Each call gets a temporary directory of its
    // own, removed with all it holds when the call is over.
    setUp() {
      const callTmp = mkdtempSync(join(tmpdir(), 'ralph-opencode-'));
      return { env: { TMPDIR: callTmp }, cleanup: () => rmSync(callTmp, { recursive: true, force: true }) };
    },
    classify: (run) => toOpencodeResult(run, o.settings.model, (o.now ?? Date.now)()),
  };
}

/** Runs the real OpenCode CLI (`opencode run`), one process (group) per iteration. */
export function opencodeBackend(options: OpencodeBackendOptions): AgentBackend {
  return new CliAgentBackend(opencodeCli(options), options);
}
