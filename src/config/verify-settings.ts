/**
 * The effective verify-gate settings of a run: the presets below
 * applied under explicit values, checkpoint `auto` decided, directories
 * resolved. Pure: the caller says whether the project is a git repository.
 */
import { isAbsolute, join, normalize } from 'node:path';
import { VERIFY_PRESETS, type VerifyPreset } from '../core/verify-presets.js';
import type { ConfigField, RalphConfig } from './keys.js';

export type OnExhausted = RalphConfig['onVerifyExhausted'];

/** Where a verify number came from: the user, the preset, or the default. */
export type ValueSource = 'explicit' | 'preset' | 'default';

/** Only `source` is read: 'default' means the user did not set the value. */
export type VerifyOrigins = Partial<Record<ConfigField, { source: string }>>;

export interface VerifySettings {
  /** '' when no verify gate is configured. */
  command: string;
  enabled: boolean;
  preset: VerifyPreset | null;
  timeoutMs: number;
  maxAttempts: number;
  /** Absolute directory the command runs in. */
  cwd: string;
  /** The user's explicit `--verify-env` / VERIFY_ENV pairs; give them to buildVerifyEnv with the parent env. */
  env: Record<string, string>;
  /** Checkpoint before each iteration (auto = on when a command is set in a git repo). */
  checkpoint: boolean;
  /** Passed checkpoints kept as stash entries for `ralph --restore`. */
  checkpointKeep: number;
  /** Roll back to the checkpoint when verification fails or the agent call fails after changing files (needs checkpoints). */
  rollbackOnFail: boolean;
  onExhausted: OnExhausted;
  /** Where each of timeout and attempts came from, for `--config` and logs. */
  sources: { timeout: ValueSource; maxAttempts: ValueSource };
  /** Things the user should hear about (checkpoint asked for outside git, rollback without checkpoints). */
  warnings: string[];
}

export interface VerifyContext {
  isGitRepo: boolean;
  /** Absolute project directory; a relative verify cwd is resolved against it. */
  projectDir: string;
}

type VerifyFields = Pick<
  RalphConfig,
  | 'verifyCommand'
  | 'verifyPreset'
  | 'verifyTimeoutSeconds'
  | 'verifyMaxAttempts'
  | 'verifyCwd'
  | 'verifyEnv'
  | 'checkpoint'
  | 'checkpointKeep'
  | 'rollbackOnFail'
  | 'onVerifyExhausted'
>;

function explicit(origins: VerifyOrigins, field: ConfigField): boolean {
  const source = origins[field]?.source;
  return source !== undefined && source !== 'default';
}

/** A value the user set wins over the preset's, and the preset's over the default. */
function presetOrSet(value: number, isExplicit: boolean, presetValue: number | undefined): { value: number; source: ValueSource } {
  if (isExplicit) return { value, source: 'explicit' };
  if (presetValue !== undefined) return { value: presetValue, source: 'preset' };
  return { value, source: 'default' };
}

export function resolveVerifySettings(config: VerifyFields, origins: VerifyOrigins, context: VerifyContext): VerifySettings {
  const command = config.verifyCommand.trim();
  const preset: VerifyPreset | null = config.verifyPreset === '' ? null : config.verifyPreset;
  const presetValues = preset ? VERIFY_PRESETS[preset] : undefined;
  const warnings: string[] = [];

  const timeout = presetOrSet(config.verifyTimeoutSeconds, explicit(origins, 'verifyTimeoutSeconds'), presetValues?.timeoutSeconds);
  const attempts = presetOrSet(config.verifyMaxAttempts, explicit(origins, 'verifyMaxAttempts'), presetValues?.maxAttempts);

  const dir = config.verifyCwd.trim();
  const cwd = dir === '' ? normalize(context.projectDir) : isAbsolute(dir) ? normalize(dir) : join(context.projectDir, dir);

  let checkpoint: boolean;
  if (config.checkpoint === 'off') checkpoint = false;
  else if (config.checkpoint === 'on') {
    checkpoint = context.isGitRepo;
    if (!context.isGitRepo) warnings.push('checkpoints need a git repository; this project is not one, so Ralph continues without checkpoints');
  } else checkpoint = (command !== '' || config.rollbackOnFail) && context.isGitRepo;

  let rollbackOnFail = config.rollbackOnFail;
  if (rollbackOnFail && !checkpoint) {
    rollbackOnFail = false;
    warnings.push(
      context.isGitRepo
        ? 'rollback on failure needs checkpoints, which are off (--no-checkpoint or CHECKPOINT=false); failed attempts are kept'
        : 'rollback on failure needs a git repository; failed attempts are kept',
    );
  }

  return {
    command,
    enabled: command !== '',
    preset,
    timeoutMs: timeout.value * 1000,
    maxAttempts: attempts.value,
    cwd,
    env: { ...config.verifyEnv },
    checkpoint,
    checkpointKeep: config.checkpointKeep,
    rollbackOnFail,
    onExhausted: config.onVerifyExhausted,
    sources: { timeout: timeout.source, maxAttempts: attempts.source },
    warnings,
  };
}
