import { isAbsolute, relative } from 'node:path';
import type { RalphConfig } from '../../config/keys.js';
import { summarizeRefusals } from '../../core/sandbox-refusals.js';
import { setActiveSandbox } from '../../infra/sandbox/active-sandbox.js';
import { findExcludeFile, guardPlaceholders, releasePlaceholders, sweepPlaceholderLeftovers } from '../../infra/sandbox/sandbox-placeholders.js';
import { openSandboxSession, type SandboxSession } from '../../infra/sandbox/sandbox-session.js';
import type { Logger, ProcessRunner } from '../../ports.js';
import { sandboxPolicyFor } from '../sandbox-policy-lines.js';
import { addSecretValues } from '../../state/redaction.js';

export interface LoopSandbox {
  session: SandboxSession;
  /** Ends the sandbox: the runtime reset once, its placeholders removed, the refusals summed up. */
  stop(): Promise<void>;
}

/**
 * What a sandboxed run left in the project when it was killed (placeholders, the exclude
 * block that hid them) goes before anything looks at the tree, sandbox or not.
 */
export async function sweepSandboxLeftovers(project: string, runner: ProcessRunner, logger: Logger): Promise<void> {
  const removed = sweepPlaceholderLeftovers(project, await findExcludeFile(project, runner));
  if (removed.length > 0) logger.info(`Removed the empty placeholders an interrupted sandboxed run left behind: ${removed.join(', ')}`);
}

/**
 * Starts the run's sandbox (--sandbox): every agent call of every backend goes through it
 * from here on, and the verify command too unless --verify-outside-sandbox. Throws a RalphError with
 * what to install when this machine cannot run it.
 */
export async function startLoopSandbox(
  config: RalphConfig,
  project: string,
  env: NodeJS.ProcessEnv,
  runner: ProcessRunner,
  logger: Logger,
  /** Stops the runtime's first install, when one is under way. */
  interrupt?: AbortSignal,
): Promise<LoopSandbox> {
  // The runtime protects the files of the working directory (shell start-up files, .git/hooks, …):
  // that must be the project.
  if (process.cwd() !== project) process.chdir(project);
  const policy = sandboxPolicyFor(config, project, env);
  // Ralph's own files the agent may not change get an empty stand-in where missing, like the runtime's own.
  const ralphFiles = policy.denyWrite.map((path) => relative(project, path)).filter((rel) => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel));
  const guard = guardPlaceholders(project, await findExcludeFile(project, runner), ralphFiles);
  let session: SandboxSession;
  try {
    session = await openSandboxSession({
      project,
      policy,
      env,
      say: (line) => logger.info(line),
      ...(interrupt ? { interrupt } : {}),
      // The agent's refusals are the loop's events; the verify command's are told here.
      onRefusal: (refusal, role) => {
        if (role !== 'agent') logger.warn(`🛡️  Sandbox refused the ${role} command: ${refusal.detail}`);
      },
    });
  } catch (error) {
    releasePlaceholders(project, guard);
    throw error;
  }
  if (session.proxySecret) addSecretValues([{ name: 'sandbox proxy password', value: session.proxySecret }]);
  setActiveSandbox(session);
  logger.info(
    `🛡️  Sandbox on: the agent writes only in the project, the temp dir and ${policy.allowWrite.length - 2} more place${policy.allowWrite.length === 3 ? '' : 's'}, never .ralphrc, Ralph's state or its own settings; network only to ${policy.allowedDomains.join(', ') || 'nothing'} (ralph --config shows the policy)`,
  );
  return {
    session,
    stop: async () => {
      setActiveSandbox(undefined);
      await session.close();
      releasePlaceholders(project, guard);
      for (const line of summarizeRefusals(session.tally)) logger.warn(line);
    },
  };
}
