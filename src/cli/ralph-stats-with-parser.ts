import { showStats } from './commands/stats-command.js';
import { runMain } from './main.js';
import { parseStatsArgs } from './ralph-stats-args.js';

// `ralph-stats` with an argv that needs commander: --project, --help, errors.
void runMain(
  async (argv) => {
    const flags = await parseStatsArgs(argv);
    return flags ? showStats(flags) : 0;
  },
  { json: true },
);
