import { cooldownRemainingMinutes, initialCircuit, type CircuitState } from '../../core/circuit-breaker.js';
import { ExitCode } from '../../errors.js';
import { readDocument } from '../../state/document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from '../../state/documents/circuit.js';
import { STATUS } from '../../state/documents/status.js';
import { ralphPaths, type RalphPaths } from '../../state/paths.js';
import { requireProjectDir } from '../../state/project-files.js';
import { runningLoopPid } from '../../state/running-loop.js';
import { readPendingStop } from '../../state/stop-request.js';
import { buildStatusJson } from '../../state/status-snapshot.js';
import { renderCircuitStatus } from '../../ui/screens.js';
import { renderStatusText } from '../../ui/render-status.js';
import { runMain } from '../main.js';
import { printRedacted } from '../redacted-output.js';

/**
 * `ralph --status` and `ralph --circuit-status` [--json]: they only read, so
 * they need no lock, git or parser. `ralph` answers them with this module and
 * what it imports alone; keep anything heavier out of here.
 */

/** The read-only actions, as the parser names them. */
export type StatusAction = 'status' | 'circuit-status';

// Straight to file descriptor 1: creating process.stdout would cost more than the answer.
const out = (text: string): void => printRedacted(text.endsWith('\n') ? text : `${text}\n`);
const json = (value: unknown): void => out(JSON.stringify(value, null, 2));

function showStatus(paths: RalphPaths, asJson: boolean): number {
  if (asJson) {
    json(buildStatusJson(paths));
    return ExitCode.Completed;
  }
  const read = readDocument(paths, STATUS);
  const pid = runningLoopPid(paths);
  if (read.kind === 'missing')
    out(
      pid !== undefined
        ? `A Ralph loop is running (PID ${pid}) but status.json is missing; the loop rewrites it on its next step.`
        : 'No status file found. Ralph may not be running.',
    );
  else if (read.kind === 'corrupt') out(`status.json is corrupt (${read.reason}). A running loop rewrites it on its next step.`);
  else out(renderStatusText(read.value, pid !== undefined, Date.now(), readPendingStop(paths)));
  return ExitCode.Completed;
}

/**
 * Minutes left before an open circuit may be retried, from the project's
 * settings. Only an open circuit has a cooldown, so only then are the settings
 * loaded: `--status` and a closed circuit never evaluate the key registry, its
 * value types or the .ralphrc parser.
 */
async function cooldownMinutesLeft(paths: RalphPaths, state: CircuitState): Promise<number | undefined> {
  if (state.state !== 'OPEN') return undefined;
  const { loadProjectConfig } = await import('../load-project-config.js');
  const { config } = loadProjectConfig(paths, process.env, {});
  return cooldownRemainingMinutes(state, Date.now(), { cooldownMinutes: config.cbCooldownMinutes });
}

async function showCircuit(paths: RalphPaths, asJson: boolean): Promise<number> {
  const read = readDocument(paths, CIRCUIT_STATE);
  const state = read.kind === 'ok' ? read.value : initialCircuit(Date.now());
  const cooldown = await cooldownMinutesLeft(paths, state);
  if (asJson) {
    const history = readDocument(paths, CIRCUIT_HISTORY);
    json({
      ...state,
      file: read.kind,
      ...(read.kind === 'corrupt' ? { corrupt_reason: read.reason } : {}),
      cooldown_remaining_minutes: cooldown ?? null,
      history: history.kind === 'ok' ? history.value.slice(-10) : [],
    });
    return ExitCode.Completed;
  }
  if (read.kind === 'corrupt') out(`Warning: .circuit_breaker_state is corrupt (${read.reason}); the next loop resets it to CLOSED.`);
  if (read.kind === 'missing') out('No circuit breaker state yet (the loop has not run): CLOSED.');
  out(renderCircuitStatus(state, cooldown));
  return ExitCode.Completed;
}

/** Prints the status or the circuit breaker's state of the project; the exit code. */
export async function showReadOnlyStatus(action: StatusAction, paths: RalphPaths, asJson: boolean): Promise<number> {
  requireProjectDir(paths);
  return action === 'status' ? showStatus(paths, asJson) : showCircuit(paths, asJson);
}

/** The same for the project in `cwd`. */
export function runStatusCommand(action: StatusAction, asJson: boolean, cwd: string): Promise<number> {
  return showReadOnlyStatus(action, ralphPaths(cwd), asJson);
}

/** `ralph --status` / `--circuit-status` [--json] as a whole process (the fast path's answer). */
export function answerStatus(action: StatusAction, asJson: boolean): Promise<void> {
  return runMain(async () => runStatusCommand(action, asJson, process.cwd()), { json: true });
}
