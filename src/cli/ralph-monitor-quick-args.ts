import { DEFAULT_INTERVAL_SEC, type MonitorOptions } from '../features/observe/monitor/monitor-command.js';
import { quickFlags } from './quick-flags.js';

/** `ralph-monitor` with its switches alone (`--once`, `--json`, `--no-color`) as the parser reads it; undefined for any other argv. */
export function quickMonitorArgs(argv: readonly string[]): MonitorOptions | undefined {
  const quick = quickFlags(argv, ['--once', '--json', '--no-color']);
  return quick && { intervalSec: DEFAULT_INTERVAL_SEC, once: quick.has('--once'), json: quick.has('--json'), color: !quick.has('--no-color') };
}
