import type { TaskVerify } from '../core/task-spec.js';
import type { FlagValues } from './config-origins.js';

/**
 * The task's verify options as command-line flag values, so they go through the
 * same validation and precedence as `--verify …` (explicit max/timeout beat the preset).
 */
export function taskVerifyFlags(verify: TaskVerify): FlagValues {
  const flags: FlagValues = { verifyCommand: verify.command };
  if (verify.max !== undefined) flags.verifyMaxAttempts = String(verify.max);
  if (verify.timeout !== undefined) flags.verifyTimeoutSeconds = String(verify.timeout);
  if (verify.preset !== undefined) flags.verifyPreset = verify.preset;
  if (verify.checkpoint !== undefined) flags.checkpoint = verify.checkpoint;
  if (verify.rollback !== undefined) flags.rollbackOnFail = verify.rollback;
  if (verify.workingDir !== undefined) flags.verifyCwd = verify.workingDir;
  return flags;
}
