import type { RalphConfig } from '../../config/keys.js';
import type { AgentProcessHost } from '../agent-process.js';
import type { AgentSettings } from '../agent-declaration.js';
import type { CliCallSettings } from './argv.js';
import type { BackendContext } from '../context.js';

/** The values of one agent CLI's settings in a loop's configuration ('' for a setting it does not have). */
export interface CliSettingValues extends CliCallSettings {
  command: string[];
  extraArgs: string[];
  minVersion: string;
}

/**
 * The values of an agent's own settings, read through its declaration: an agent knows its
 * settings by what it declared, never by a field of RalphConfig written out by hand.
 */
export function cliSettingValues(config: RalphConfig, settings: AgentSettings): CliSettingValues {
  const fields = config as unknown as Readonly<Record<string, unknown>>;
  const list = (field: string): string[] => fields[field] as string[];
  const one = (field: string | undefined): string => (field === undefined ? '' : (fields[field] as string));
  return {
    command: list(settings.command.field),
    model: one(settings.model.field),
    effort: one(settings.effort?.field),
    extraArgs: list(settings.extraArgs.field),
    minVersion: one(settings.minVersion.field),
  };
}

/** What every call of a loop's agent runs with: the agent's filtered environment, the log, the run's sandbox, redactor and clock. */
export function processHost(ctx: BackendContext, env: NodeJS.ProcessEnv): AgentProcessHost & { now: () => number } {
  return {
    env,
    logger: ctx.logger,
    outputRedactor: ctx.outputRedactor,
    ...(ctx.sandbox !== undefined ? { sandbox: ctx.sandbox } : {}),
    now: () => ctx.clock.now(),
  };
}
