import type { RestoreMoveFacts } from '../core/restore-move.js';
import type { GitWorkspace } from '../infra/git-workspace.js';

/** The checkpoint fields a preview needs (any checkpoint record has them). */
export interface CheckpointRefs {
  id: string;
  head: string | null;
  branch: string | null;
}

async function tip(ws: GitWorkspace, ref: string): Promise<string | null> {
  const r = await ws.run(['rev-parse', '-q', '--verify', `${ref}^{commit}`]);
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Reads what a restore of `cp` would move: the branch's tip now, the commits it would leave, HEAD's branch. */
export async function readRestoreMove(ws: GitWorkspace, cp: CheckpointRefs): Promise<RestoreMoveFacts> {
  const current = await ws.run(['symbolic-ref', '-q', 'HEAD']);
  const currentBranch = current.exitCode === 0 ? current.stdout.trim() : null;
  const branchTip = cp.branch ? await tip(ws, cp.branch) : null;
  let commitsLeft: RestoreMoveFacts['commitsLeft'] = [];
  if (branchTip && branchTip !== cp.head) {
    const range = cp.head ? [branchTip, `^${cp.head}`] : [branchTip];
    const log = await ws.run(['log', '--format=%H%x00%s', ...range, '--']);
    if (log.exitCode !== 0) throw new Error(`git log failed: ${log.stderr.trim()}`);
    commitsLeft = log.stdout
      .split('\n')
      .filter((l) => l.includes('\0'))
      .map((l) => {
        const [sha = '', subject = ''] = l.split('\0');
        return { sha, subject };
      });
  }
  return { checkpointId: cp.id, checkpointBranch: cp.branch, checkpointHead: cp.head, branchTip, currentBranch, commitsLeft };
}
