import { homedir, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { BACKEND_NAMES, backendEntry } from '../backends/registry.js';
import { ralphFilesForSandbox } from '../state/ralph-files-for-sandbox.js';
import { ralphPaths } from '../state/paths.js';
import type { RalphConfig } from '../config/keys.js';
import { verifyRunsContained } from '../config/verify-placement.js';
import { buildSandboxPolicy, describeSandboxPolicy, type SandboxPolicy } from '../core/sandbox-policy.js';

function homeOf(env: NodeJS.ProcessEnv): string {
  return env['HOME'] || homedir();
}

/** The sandbox rules of a run with this configuration, in this environment. */
export function sandboxPolicyFor(config: RalphConfig, project: string, env: NodeJS.ProcessEnv): SandboxPolicy {
  const paths = ralphPaths(project);
  return buildSandboxPolicy({
    project,
    home: homeOf(env),
    tmpDir: tmpdir(),
    env,
    agent: backendEntry(config.backend).sandbox,
    otherAgents: BACKEND_NAMES.filter((name) => name !== config.backend).map((name) => backendEntry(name).sandbox),
    allowDomains: config.sandboxAllowDomains,
    allowWrite: config.sandboxAllowWrite,
    ralphFiles: ralphFilesForSandbox(paths, resolve(paths.project, config.promptFile)),
  });
}

/** The `ralph --config` lines of the sandbox: whether it is on, and the rules a run would get. */
export function sandboxConfigLines(config: RalphConfig, project: string, env: NodeJS.ProcessEnv): string[] {
  const state = config.sandbox
    ? `on${verifyRunsContained(config) ? ', the verify command too' : ', the agent only (the verify command runs outside)'}`
    : 'off (--sandbox turns it on)';
  return [`Sandbox: ${state}; the policy a sandboxed run gets:`, ...describeSandboxPolicy(sandboxPolicyFor(config, project, env), homeOf(env), project)];
}
