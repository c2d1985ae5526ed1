import { createCheckpoint, dropCheckpoint, rollbackToCheckpoint, type Checkpoint } from '../../../checkpoints/index.js';
import { GitWorkspace } from '../../../infra/git-workspace.js';
import type { ToolContext } from '../test/tool-home.js';

/**
 * The verify tool's checkpoints, over the loop's git checkpoints (stash-style
 * commits that `git stash list` shows as `ralph checkpoint: verify gate …`,
 * recorded in `<dir>/.ralph/.checkpoints`, so `ralph --checkpoints` and
 * `ralph --restore` see them too). A problem never fails the verification:
 * it becomes a warning in the tool's result.
 */
export interface GateCheckpoints {
  create(gateId: string, attempt: number): Promise<Checkpoint | null>;
  drop(checkpoint: Checkpoint): Promise<void>;
  rollback(checkpoint: Checkpoint, label: string): Promise<{ attemptRef: string | null } | null>;
}

export function gitCheckpoints(dir: string, ctx: ToolContext, warnings: string[]): GateCheckpoints {
  let cached: GitWorkspace | undefined;
  const workspace = (): GitWorkspace => (cached ??= new GitWorkspace(dir, ctx.runner));
  const warn = (m: string): void => {
    warnings.push(m);
  };
  return {
    async create(gateId, attempt) {
      const r = await createCheckpoint(workspace(), { loop: attempt, now: ctx.now(), label: `verify gate ${gateId}`, warn });
      if (r.ok) return r.checkpoint;
      warn(`no checkpoint was made: ${r.reason}`);
      return null;
    },
    async drop(checkpoint) {
      const r = await dropCheckpoint(workspace(), checkpoint, { warn });
      if (!r.ok) warn(`could not drop checkpoint ${checkpoint.id}: ${r.reason}`);
    },
    async rollback(checkpoint, label) {
      const r = await rollbackToCheckpoint(workspace(), checkpoint, { attemptLabel: label, now: ctx.now() });
      if (r.ok) return { attemptRef: r.attemptRef };
      warn(`rollback to checkpoint ${checkpoint.id} failed: ${r.reason}`);
      return null;
    },
  };
}
