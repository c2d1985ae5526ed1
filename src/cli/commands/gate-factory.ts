import type { ConfigField, RalphConfig } from '../../config/keys.js';
import type { ValueOrigin } from '../../config/load-config.js';
import { describeEnvFilter } from '../../core/secret-env.js';
import type { Redactor } from '../../core/secret-redactor.js';
import { buildVerifyEnv, strippedVerifyEnvNames } from '../../core/verify-env.js';
import { resolveVerifySettings } from '../../config/verify-settings.js';
import type { EngineIo } from '../../engine/ports.js';
import { VerifyGateStep } from '../../engine/verify-gate-step.js';
import { createCheckpointPort } from '../../checkpoints/index.js';
import { GitWorkspace } from '../../infra/git-workspace.js';
import { runVerifyCommand } from '../../infra/verify-executor.js';
import type { CommandContainer } from '../../infra/process.js';
import type { Logger, ProcessRunner } from '../../ports.js';
import type { LoopStore } from '../../state/loop-store.js';
import type { ExitGuard } from './exit-guard.js';

export interface GateContext {
  io: EngineIo;
  runner: ProcessRunner;
  logger: Logger;
  store: LoopStore;
  env: NodeJS.ProcessEnv;
  /** Holds a second Ctrl+C back until a rollback in progress is complete. */
  exitGuard: ExitGuard;
  /** The run's redactor of text as it is now (it grows with the secrets the run learns). */
  redactor: () => Redactor;
  /** The sandbox the verify command runs in (under --sandbox, unless --verify-outside-sandbox). */
  contain?: CommandContainer;
}

/**
 * The verify gate of this run, or undefined when there is no verify command
 * and no checkpoints were asked for (--checkpoint, --rollback-on-fail,
 * --backup). Outside git the gate still runs, without checkpoints.
 */
export async function createGate(config: RalphConfig, origins: Record<ConfigField, ValueOrigin>, ctx: GateContext): Promise<VerifyGateStep | undefined> {
  const wanted = config.verifyCommand.trim() !== '' || config.backup || config.checkpoint === 'on' || config.rollbackOnFail;
  if (!wanted) return undefined;
  const ws = new GitWorkspace(ctx.store.paths.project, ctx.runner);
  const isGitRepo = (await ws.repo()) !== null;
  const settings = resolveVerifySettings(config, origins, { isGitRepo, projectDir: ctx.store.paths.project });
  for (const warning of settings.warnings) ctx.logger.warn(warning);
  const stripped = settings.enabled
    ? describeEnvFilter('Verify command', { withheld: [], stripped: strippedVerifyEnvNames(ctx.env) }, '--verify-env NAME=VALUE')
    : undefined;
  if (stripped) ctx.logger.info(stripped);
  if (settings.enabled && !isGitRepo)
    ctx.logger.warn('This project is not a git repository: the verify gate runs, but there are no checkpoints and no rollback.');
  const withCheckpoints = isGitRepo && (settings.checkpoint || config.backup);
  if (config.backup && !isGitRepo) ctx.logger.warn('--backup needs a git repository; continuing without checkpoints.');
  const warn = (m: string): void => ctx.logger.warn(m);
  return new VerifyGateStep({
    settings,
    runCommand: async (signal) => {
      const result = await runVerifyCommand({
        command: settings.command,
        cwd: settings.cwd,
        timeoutMs: settings.timeoutMs,
        env: buildVerifyEnv(ctx.env, settings.env),
        redactor: ctx.redactor(),
        signal,
        ...(ctx.contain ? { contain: ctx.contain } : {}),
      });
      if (result.stoppedProcesses) ctx.logger.info(`Stopped what the verify command left running: ${result.stoppedProcesses.join(', ')}`);
      return result;
    },
    ...(withCheckpoints
      ? { checkpoints: createCheckpointPort(ws, { clock: ctx.io.clock, warn, protect: (label, work) => ctx.exitGuard.protect(label, work) }) }
      : {}),
    keepCheckpoints: config.backup ? Math.max(settings.checkpointKeep, 50) : settings.checkpointKeep,
    keepPassed: config.backup,
    store: { load: () => ctx.store.loadGate(), save: (s) => ctx.store.saveGate(s), takeAction: () => ctx.store.takeGateAction() },
    ...ctx.io,
  });
}
