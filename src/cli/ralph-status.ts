import { runMain } from './main.js';
import { runStatusCommand, type StatusAction } from './commands/status-commands.js';

/**
 * `ralph --status` / `--circuit-status` [--json] once ralph.ts has read them
 * without the parser: a file of its own in the bundle, so `--version` and
 * `--help` never read it and these never read the parser.
 */
export async function runQuickStatus(action: StatusAction, asJson: boolean): Promise<void> {
  await runMain(async () => runStatusCommand(action, asJson, process.cwd()), { json: true });
}
