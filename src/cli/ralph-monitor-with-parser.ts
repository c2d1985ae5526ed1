import { runMonitorProcess } from './monitor-process.js';
import { parseMonitorArgs } from './ralph-monitor-args.js';

// `ralph-monitor` with an argv that needs commander: --interval, --project, --help, errors.
void runMonitorProcess((argv) => parseMonitorArgs(argv));
