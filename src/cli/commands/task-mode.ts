import type { FlagValues } from '../../config/load-config.js';
import { parseTaskSpec } from '../../core/task-spec.js';
import { taskVerifyFlags } from '../../config/task-verify-flags.js';
import type { TaskMode } from '../../engine/loop-deps.js';
import { UsageError } from '../../errors.js';

/**
 * `ralph run '>>fix-auth :: verify:"npm test" max:5 loop:true :: "criteria"'`:
 * the task, and its verify options as flags (flags typed on the command line
 * still win). A parse error names the offending token (exit 2).
 */
export function parseTaskMode(spec: string, flags: FlagValues): { task: TaskMode; flags: FlagValues } {
  const parsed = parseTaskSpec(spec);
  if (!parsed.ok) {
    const { message, index } = parsed.error;
    const pointer = `  ${spec}\n  ${' '.repeat(Math.max(0, index))}^`;
    throw new UsageError(
      `cannot read the task: ${message}\n${pointer}`,
      `Example: ralph run '>>fix-auth :: verify:"npm test" max:5 timeout:120 checkpoint:true rollback:true loop:true'`,
    );
  }
  const { task, verify, criteria } = parsed.spec;
  const merged: FlagValues = { ...(verify ? taskVerifyFlags(verify) : {}), ...flags };
  return { task: { text: task, criteria, singleShot: verify !== undefined && verify.loop !== true }, flags: merged };
}
