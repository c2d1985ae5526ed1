import { collectSecretValues } from '../core/secret-redactor.js';
import { CONFIG_FIELDS, type ConfigField } from '../config/keys.js';
import type { FlagValues } from '../config/load-config.js';
import { UsageError } from '../errors.js';
import { startLoopSession } from '../cli/commands/loop-session.js';
import { parseTaskMode } from '../cli/commands/task-mode.js';
import { redactEvent } from '../cli/loop/event-stream.js';
import { addSecretValues, currentRedactors } from '../state/redaction.js';
import type { RunLoopLimits, RunLoopOptions, RunLoopResult, SettingValue } from './run-loop-options.js';

/** What the library says to `ralph` when the caller's AbortSignal ends a run (status.json, the interruption line). */
export const ABORT_REASON = 'AbortSignal';

const LIMIT_FIELDS: { readonly [K in keyof Required<RunLoopLimits>]: ConfigField } = {
  maxLoops: 'maxLoops',
  maxCallsPerHour: 'maxCallsPerHour',
  timeoutMinutes: 'timeoutMinutes',
  pauseSeconds: 'pauseSeconds',
  maxCostUsd: 'maxCostUsd',
  maxRuntimeMinutes: 'maxRuntimeMinutes',
};

const FIELDS: ReadonlySet<string> = new Set(CONFIG_FIELDS);

/**
 * Runs Ralph's loop in this process, as `ralph` (or `ralph run '<task>'`) would in `cwd`,
 * and resolves to how it ended. It installs no signal handler, never exits the process and
 * prints nothing unless `output` is given. Bad options and unusable projects throw a
 * RalphError (UsageError for exit-2 problems); every ending of a loop that ran, Ralph's own
 * stops included, resolves.
 */
export async function runLoop(options: RunLoopOptions): Promise<RunLoopResult> {
  if (typeof options.cwd !== 'string' || options.cwd === '') throw new UsageError('runLoop needs cwd: the project folder the loop works in.');
  if (options.task !== undefined && options.prompt !== undefined)
    throw new UsageError('runLoop takes a task or a prompt file, not both.', 'Give task for task mode, or prompt for the prompt file of a Ralph project.');
  if (options.signal?.aborted) throw new UsageError('runLoop was given an AbortSignal that is already aborted: no loop was started.');
  const env = options.env ?? process.env;
  // Output of the agent and events handed out carry no value of the environment's secrets.
  addSecretValues(collectSecretValues(env));
  let flags = libraryFlags(options);
  let task;
  if (options.task !== undefined) {
    const parsed = parseTaskMode(options.task, flags);
    task = parsed.task;
    flags = parsed.flags;
  }
  const { signal, onEvent, output } = options;
  const result = await startLoopSession({
    cwd: options.cwd,
    env: { ...env },
    flags,
    dryRun: options.dryRun === true,
    fresh: options.fresh === true,
    ...(task ? { task } : {}),
    allowNoGit: options.allowNoGit === true,
    acceptConfigChange: options.acceptConfigChange === true,
    frontEnd: {
      tty: false,
      write: output ? terminalText(output) : () => undefined,
      quiet: output === undefined,
      color: false,
      restartCommand: 'runLoop()',
      ...(onEvent ? { onEvent: (event) => onEvent(redactEvent(event, currentRedactors().text)) } : {}),
      ...(signal
        ? {
            attach: ({ abort }) => {
              const stop = (): void => abort.abort(ABORT_REASON);
              if (signal.aborted) stop();
              signal.addEventListener('abort', stop, { once: true });
              return () => signal.removeEventListener('abort', stop);
            },
          }
        : {}),
    },
  });
  return { reason: result.reason, exitCode: result.exitCode, iterations: result.loops, message: result.message };
}

/**
 * The terminal's text for `output`: strings as they are, the agent's --live bytes decoded
 * (a character split across chunks waits for its end), secret values redacted.
 */
function terminalText(output: (text: string) => void): (text: string | Uint8Array) => void {
  const decoder = new TextDecoder();
  return (text) => {
    const decoded = typeof text === 'string' ? text : decoder.decode(text, { stream: true });
    if (decoded !== '') output(currentRedactors().text.redact(decoded));
  };
}

/** The options as the flags `ralph` would be given: each checked by the same rules, named options last so they win. */
function libraryFlags(options: RunLoopOptions): FlagValues {
  const flags: Record<string, string | boolean | readonly string[]> = {};
  const set = (field: string, value: SettingValue | undefined, name: string): void => {
    if (value === undefined) return;
    if (!FIELDS.has(field))
      throw new UsageError(`runLoop: unknown setting ${name}.`, 'Name a field that `ralph --config --json` shows, such as maxLoops or mockScript.');
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new UsageError(`runLoop: ${name} must be a finite number, not ${String(value)}.`);
      flags[field] = String(value);
    } else if (typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value)) flags[field] = value;
    else throw new UsageError(`runLoop: ${name} must be a string, number, boolean or list of strings, not ${typeof value}.`);
  };
  for (const [field, value] of Object.entries(options.settings ?? {})) set(field, value, `settings.${field}`);
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    const field = (LIMIT_FIELDS as Record<string, ConfigField | undefined>)[key];
    if (field === undefined) throw new UsageError(`runLoop: unknown limit limits.${key}.`, `Limits are ${Object.keys(LIMIT_FIELDS).join(', ')}.`);
    set(field, value as SettingValue | undefined, `limits.${key}`);
  }
  set('backend', options.backend, 'backend');
  set('verifyCommand', options.verify, 'verify');
  set('promptFile', options.prompt, 'prompt');
  return flags as FlagValues;
}
