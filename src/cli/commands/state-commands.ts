import { CONFIG_FIELDS, CONFIG_KEYS } from '../../config/keys.js';
import { formatConfigValue } from '../../config/load-config.js';
import { ExitCode, RalphError } from '../../errors.js';
import { ralphPaths, type RalphPaths } from '../../state/paths.js';
import { requestLoopStop, resetCircuitBreaker, whileNoLoopRuns } from '../../state/loop-controls.js';
import { resetSession } from '../../state/agent-session-store.js';
import { requireProjectDir } from '../../state/project-files.js';
import { loadProjectConfig } from '../load-project-config.js';
import { backendConfigLines, backendSettingFields, findProgramOnPath } from '../backend-config-lines.js';
import { sandboxConfigLines } from '../sandbox-policy-lines.js';
import type { RalphArgs } from '../ralph-args.js';
import { showReadOnlyStatus } from './status-commands.js';

const out = (text: string): void => {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};
const json = (value: unknown): void => out(JSON.stringify(value, null, 2));

const warnUser = (m: string): void => {
  process.stderr.write(`Warning: ${m}\n`);
};

async function doResetCircuit(paths: RalphPaths): Promise<number> {
  await resetCircuitBreaker(paths, Date.now, warnUser);
  out('✅ Circuit breaker reset to CLOSED state');
  return ExitCode.Completed;
}

async function doResetSession(paths: RalphPaths): Promise<number> {
  await whileNoLoopRuns(paths, 'the session state', () => resetSession(paths, 'manual_reset_flag', 0, Date.now(), warnUser));
  out('✅ Session state reset successfully');
  return ExitCode.Completed;
}

function showConfig(paths: RalphPaths, args: RalphArgs): number {
  const loaded = loadProjectConfig(paths, process.env, args.flags);
  for (const w of loaded.warnings) process.stderr.write(`Warning: ${w}\n`);
  if (args.json) {
    const doc: Record<string, unknown> = {};
    for (const field of CONFIG_FIELDS) {
      const spec = CONFIG_KEYS[field];
      const origin = loaded.origins[field];
      doc[spec.key] = { value: loaded.config[field], source: origin.source, ...(origin.where ? { where: origin.where } : {}) };
    }
    json(doc);
    return ExitCode.Completed;
  }
  // The selected agent's settings come first; other agents' settings would only be noise.
  const agentFields = backendSettingFields();
  const fields = CONFIG_FIELDS.filter((f) => f !== 'backend' && !agentFields.has(f));
  const width = Math.max(...fields.map((f) => CONFIG_KEYS[f].key.length));
  out('Effective configuration (flag > environment > .ralphrc > default):');
  for (const line of backendConfigLines(loaded, (file) => findProgramOnPath(file, paths.project, process.env['PATH']))) out(line);
  for (const field of fields) {
    const spec = CONFIG_KEYS[field];
    const origin = loaded.origins[field];
    const source = origin.where ? `${origin.source}: ${origin.where}` : origin.source;
    out(`  ${spec.key.padEnd(width)}  ${formatConfigValue(loaded.config, field) || '""'}  (${source})`);
  }
  for (const line of sandboxConfigLines(loaded.config, paths.project, process.env)) out(line);
  return ExitCode.Completed;
}

function requestStop(paths: RalphPaths): number {
  const request = requestLoopStop(paths, Date.now());
  if (!request.sent) {
    out('No Ralph loop is running in this project.');
    return ExitCode.RuntimeError;
  }
  out(`Asked the loop (PID ${request.pid}) to stop after its current step.`);
  return ExitCode.Completed;
}

export async function runStateCommand(args: RalphArgs, cwd: string, _env: NodeJS.ProcessEnv): Promise<number> {
  const paths = ralphPaths(cwd);
  switch (args.action) {
    case 'status':
    case 'circuit-status':
      return showReadOnlyStatus(args.action, paths, args.json);
    case 'reset-circuit':
      requireProjectDir(paths);
      return doResetCircuit(paths);
    case 'reset-session':
      requireProjectDir(paths);
      return doResetSession(paths);
    case 'config':
      return showConfig(paths, args);
    case 'stop':
      return requestStop(paths);
    case 'gate-action':
      requireProjectDir(paths);
      return (await import('./gate-commands.js')).gateActionCommand(paths, args.gateAction ?? 'retry');
    case 'checkpoints':
      if (args.prune)
        return (await import('./gate-commands.js')).pruneCheckpointsCommand(
          paths,
          loadProjectConfig(paths, process.env, args.flags).config.checkpointKeep,
          args.json,
        );
      return (await import('./gate-commands.js')).listCheckpointsCommand(paths, args.json);
    case 'restore':
      return (await import('./gate-commands.js')).restoreCommand(paths, args.restoreId ?? '', { force: args.force === true });
    case 'rollback': {
      const gates = await import('./gate-commands.js');
      return args.rollbackTarget
        ? gates.restoreCommand(paths, args.rollbackTarget, { force: args.force === true })
        : gates.listCheckpointsCommand(paths, args.json);
    }
    case 'loop':
    case 'inspect':
    case 'monitor':
    case 'demo':
    case 'test':
    case 'mcp':
    case 'queue':
    case 'dashboard':
      throw new RalphError(`internal: --${args.action} is not a state command`, ExitCode.RuntimeError);
  }
}
