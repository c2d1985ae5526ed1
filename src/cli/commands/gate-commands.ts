import type { GateAction } from '../../core/verify-gate.js';
import { describeRestoreMove, restoreRewindsBranch } from '../../core/restore-move.js';
import { ExitCode, RalphError, UsageError } from '../../errors.js';
import { findCheckpoint, listCheckpoints, pruneCheckpoints, readRestoreMove, restoreCheckpoint } from '../../checkpoints/index.js';
import { GitWorkspace } from '../../infra/git-workspace.js';

import { askChoice } from '../../ui/ask.js';
import { answerVerifyGate } from '../../state/loop-controls.js';
import type { RalphPaths } from '../../state/paths.js';
import { runningLoopPid } from '../../state/running-loop.js';
import { createDefaultDeps } from '../deps.js';

const out = (text: string): void => {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};
const warn = (m: string): void => {
  process.stderr.write(`Warning: ${m}\n`);
};

/**
 * `ralph --gate-action retry|skip|abort`: answers the
 * paused gate of a running loop, or records the answer for the next run.
 */
export async function gateActionCommand(paths: RalphPaths, action: GateAction): Promise<number> {
  const answer = await answerVerifyGate(paths, action, warn);
  if (answer.kind === 'sent') {
    out(`Sent '${action}' to the verify gate of the running loop (PID ${answer.pid}).`);
    return ExitCode.Completed;
  }
  const { before } = answer;
  const paused = before.status === 'escalated' ? 'The paused' : `The (not paused, ${before.status})`;
  const effect = {
    retry: 'attempts are reset; the next ralph run verifies again from attempt 1.',
    skip: 'the gate is skipped: ralph continues without verification until the command changes or you answer retry.',
    abort: 'the gate is aborted; the next ralph run starts a new verify cycle.',
  }[action];
  out(`${paused} verify gate for '${before.command}': ${effect}`);
  return ExitCode.Completed;
}

function workspace(paths: RalphPaths): GitWorkspace {
  return new GitWorkspace(paths.project, createDefaultDeps().runner);
}

/** `ralph --checkpoints [--json]` (and `--rollback` without an id). */
export async function listCheckpointsCommand(paths: RalphPaths, asJson: boolean): Promise<number> {
  const listing = await listCheckpoints(workspace(paths), { warn });
  if (!listing.ok) throw new RalphError(`Cannot list checkpoints: ${listing.reason}`, ExitCode.RuntimeError);
  if (asJson) {
    out(JSON.stringify({ checkpoints: listing.checkpoints, attempts: listing.attempts }, null, 2));
    return ExitCode.Completed;
  }
  if (listing.checkpoints.length === 0) out('No checkpoints. Ralph makes one before each iteration when a verify command is set (or with --backup).');
  else {
    out('Checkpoints (oldest first); restore one with: ralph --restore <id>');
    for (const cp of listing.checkpoints) {
      out(`  ${cp.id.padEnd(16)} loop ${String(cp.loop).padEnd(4)} ${cp.createdAt}  ${cp.message}`);
    }
  }
  if (listing.attempts.length > 0) {
    out('\nDiscarded attempts (bring a file back with: git restore --source=<ref> -- <path>):');
    for (const a of listing.attempts) out(`  ${a.ref}  ${a.date}  ${a.subject}`);
  }
  return ExitCode.Completed;
}

const CONFIRM_TIMEOUT_MS = 5 * 60_000;

export interface RestoreOptions {
  /** Restore even when a branch moves back over newer commits. */
  force: boolean;
  /** Test seam: whether a person can answer; defaults to stdin and stderr being a terminal. */
  tty?: boolean;
}

/**
 * A restore that moves a branch back over commits made after the checkpoint
 * says so first, and goes ahead only when the person says yes (terminal) or
 * passed --force. Returns false when it must not go ahead.
 */
async function confirmBranchMove(ws: GitWorkspace, id: string, options: RestoreOptions): Promise<boolean> {
  const listing = await listCheckpoints(ws, { warn });
  // An unknown or ambiguous id is reported by the restore itself.
  const cp = listing.ok ? findCheckpoint(listing.checkpoints, id) : undefined;
  if (cp === undefined || typeof cp === 'string') return true;
  const move = await readRestoreMove(ws, cp);
  if (!restoreRewindsBranch(move)) return true;
  process.stderr.write(`${describeRestoreMove(move)}\n`);
  if (options.force) return true;
  const tty = options.tty ?? (process.stdin.isTTY === true && process.stderr.isTTY === true);
  if (!tty) {
    const n = move.commitsLeft.length;
    throw new UsageError(
      `Not restored: ${cp.id} would move branch '${(move.checkpointBranch ?? '').replace(/^refs\/heads\//, '')}' back over ${n} newer commit${n === 1 ? '' : 's'}; nothing was changed.`,
      `Run 'ralph --restore ${cp.id} --force' to restore anyway (the commits stay reachable as said above).`,
    );
  }
  const answer = await askChoice({ question: 'Restore anyway?', choices: ['yes', 'no'] as const, defaultChoice: 'no', timeoutMs: CONFIRM_TIMEOUT_MS });
  return answer === 'yes';
}

/** `ralph --checkpoints --prune`: keeps the newest `keep` checkpoints (CHECKPOINT_KEEP); saved attempts stay. */
export async function pruneCheckpointsCommand(paths: RalphPaths, keep: number, asJson: boolean): Promise<number> {
  const result = await pruneCheckpoints(workspace(paths), keep, { warn });
  if (!result.ok) throw new RalphError(`Cannot prune checkpoints: ${result.reason}`, ExitCode.RuntimeError);
  if (asJson) out(JSON.stringify({ dropped: result.dropped, kept: result.kept }, null, 2));
  else
    out(
      `Deleted ${result.dropped.length} checkpoint${result.dropped.length === 1 ? '' : 's'}, kept the newest ${result.kept.length} (CHECKPOINT_KEEP=${keep}).`,
    );
  return ExitCode.Completed;
}

/** `ralph --restore ID`: checkpoints the present first, so a restore loses nothing either. */
export async function restoreCommand(paths: RalphPaths, id: string, options: RestoreOptions = { force: false }): Promise<number> {
  const pid = runningLoopPid(paths);
  if (pid !== undefined)
    throw new RalphError(`A Ralph loop is running in this project (PID ${pid}).`, ExitCode.RuntimeError, "Stop it first with 'ralph --stop', then restore.");
  const ws = workspace(paths);
  if (!(await confirmBranchMove(ws, id, options))) {
    out('Not restored; nothing was changed.');
    return ExitCode.RuntimeError;
  }
  // Ctrl+C must not cut a restore in half: it finishes, then the command ends as usual.
  const onSigint = (): void => {
    process.stderr.write('\nFinishing the restore in progress… Ralph exits as soon as it is done.\n');
  };
  process.on('SIGINT', onSigint);
  let result: Awaited<ReturnType<typeof restoreCheckpoint>>;
  try {
    result = await restoreCheckpoint(ws, id, { now: Date.now(), warn });
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (!result.ok) throw new RalphError(`Cannot restore ${id}: ${result.reason}`, ExitCode.RuntimeError);
  out(`✅ Restored checkpoint ${result.checkpoint.id} (${result.checkpoint.message}).`);
  out(
    `   The state before the restore is checkpoint ${result.safety.id}${result.attemptRef ? ` and ${result.attemptRef}` : ''}; ralph --restore ${result.safety.id} brings it back.`,
  );
  const reverted = result.report.reverted;
  if (reverted.length > 0) {
    out(`   ${reverted.length} file${reverted.length === 1 ? '' : 's'} reverted: ${reverted.slice(0, 10).join(', ')}${reverted.length > 10 ? ', …' : ''}`);
    if (result.restoreCommand) out(`   Bring one back with: ${result.restoreCommand}`);
  }
  for (const line of result.report.refsMoved) out(`   Ref moved back: ${line}`);
  for (const line of result.report.refsLeft) out(`   Ref left as it is: ${line}`);
  for (const line of result.report.notes) out(`   Note: ${line}`);
  return ExitCode.Completed;
}
