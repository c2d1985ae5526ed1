import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigField, RalphConfig } from '../../config/keys.js';
import type { ValueOrigin } from '../../config/load-config.js';
import { describeEnvFilter } from '../../core/secret-env.js';
import { buildVerifyEnv, strippedVerifyEnvNames } from '../../core/verify-env.js';
import { resolveVerifySettings } from '../../config/verify-settings.js';
import type { CheckpointPort, EngineIo } from '../../engine/ports.js';
import { VerifyGateStep } from '../../engine/verify-gate-step.js';
import {
  createCheckpoint,
  dropCheckpoint,
  pruneExcessCheckpoints,
  readAttemptEnd,
  rollbackToCheckpoint,
  type AttemptEnd,
  type Checkpoint,
} from '../../infra/git-checkpoints.js';
import { GitWorkspace } from '../../infra/git-workspace.js';
import { runVerifyCommand } from '../../infra/verify-executor.js';
import type { CommandContainer } from '../../infra/process.js';
import type { Clock, Logger, ProcessRunner } from '../../ports.js';
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
  /** The sandbox the verify command runs in (under --sandbox, unless --verify-outside-sandbox). */
  contain?: CommandContainer;
}

const INDEX_LOCK_WAIT_MS = 2000;
const INDEX_LOCK_POLL_MS = 100;

/**
 * A git command the user runs holds .git/index.lock for a moment; a lock that
 * stays is left by a crashed one, and every rollback would be refused while it
 * is there. Waits briefly, then says what to do.
 */
async function waitForIndexLock(ws: GitWorkspace, clock: Clock): Promise<string | undefined> {
  const info = await ws.repo();
  if (!info) return undefined;
  const lock = join(info.gitDir, 'index.lock');
  for (let waited = 0; existsSync(lock); waited += INDEX_LOCK_POLL_MS) {
    if (waited >= INDEX_LOCK_WAIT_MS) {
      return `${lock} exists: a git command is running or one crashed and left it behind; if no git command is running, delete that file`;
    }
    await clock.sleep(INDEX_LOCK_POLL_MS);
  }
  return undefined;
}

/** Checkpoints over the git plumbing of src/infra/git-checkpoints.ts. */
function gitCheckpoints(ws: GitWorkspace, clock: Clock, warn: (m: string) => void, guard: ExitGuard): CheckpointPort {
  const made = new Map<string, Checkpoint>();
  // The refs each attempt left when its agent call ended: a rollback undoes only what the attempt did.
  const ends = new Map<string, AttemptEnd>();
  return {
    async create(loop) {
      const locked = await waitForIndexLock(ws, clock);
      if (locked) return { ok: false, reason: locked };
      const r = await createCheckpoint(ws, { loop, now: clock.now(), warn });
      if (!r.ok) return r;
      made.set(r.checkpoint.id, r.checkpoint);
      return { ok: true, id: r.checkpoint.id };
    },
    async drop(id) {
      const r = await dropCheckpoint(ws, made.get(id) ?? id, { warn });
      if (!r.ok) warn(`could not drop checkpoint ${id}: ${r.reason}`);
      made.delete(id);
      ends.delete(id);
    },
    async attemptEnded(id) {
      const end = await readAttemptEnd(ws).catch(() => null);
      if (end) ends.set(id, end);
    },
    async rollback(id, label) {
      const checkpoint = made.get(id);
      if (!checkpoint) return { ok: false, reason: `checkpoint ${id} is unknown to this run` };
      const attemptEnd = ends.get(id) ?? null;
      const r = await guard.protect('rollback', () => rollbackToCheckpoint(ws, checkpoint, { attemptLabel: label, now: clock.now(), warn, attemptEnd }));
      return r.ok
        ? {
            ok: true,
            restored: r.restored,
            attemptRef: r.attemptRef,
            reverted: r.report.reverted,
            restoreCommand: r.restoreCommand,
            headMoved: r.headMoved,
            refsMoved: r.report.refsMoved,
            refsLeft: r.report.refsLeft,
            notes: r.report.notes,
          }
        : r;
    },
    async prune(keep) {
      const r = await pruneExcessCheckpoints(ws, keep, { warn });
      if (!r.ok) warn(`could not prune checkpoints: ${r.reason}`);
    },
  };
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
        signal,
        ...(ctx.contain ? { contain: ctx.contain } : {}),
      });
      if (result.stoppedProcesses) ctx.logger.info(`Stopped what the verify command left running: ${result.stoppedProcesses.join(', ')}`);
      return result;
    },
    ...(withCheckpoints ? { checkpoints: gitCheckpoints(ws, ctx.io.clock, warn, ctx.exitGuard) } : {}),
    keepCheckpoints: config.backup ? Math.max(settings.checkpointKeep, 50) : settings.checkpointKeep,
    keepPassed: config.backup,
    store: { load: () => ctx.store.loadGate(), save: (s) => ctx.store.saveGate(s), takeAction: () => ctx.store.takeGateAction() },
    ...ctx.io,
  });
}
