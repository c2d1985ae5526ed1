import { showStats } from './commands/stats-command.js';
import { runMain } from './main.js';
import { createBinaryCommand, parseArgv, processIo, type CommandIo } from './program.js';

export interface StatsArgs {
  json: boolean;
  project?: string;
}

/** ralph-stats's flags read by commander; undefined when help or the version was printed. */
export async function parseStatsArgs(argv: readonly string[], io: CommandIo = processIo): Promise<StatsArgs | undefined> {
  const program = createBinaryCommand('ralph-stats', io, {
    description: 'Summary of .ralph/logs/metrics.jsonl: iterations, success rate, durations, tokens, cost, verify runs, exit reasons.',
    examples: [
      ['ralph-stats', 'the summary for the project in this folder'],
      ['ralph-stats --project ~/code/my-app', 'another project'],
      ['ralph-stats --json | jq .success_rate', 'one JSON document, for scripts'],
    ],
    exitCodes: [
      ['0', 'the summary was printed'],
      ['1', 'no metrics file yet (run ralph first)'],
      ['2', 'usage error'],
    ],
  })
    .option('--json', 'print one JSON document (keeps the original keys total_loops, successful, avg_duration, total_calls)')
    .option('-p, --project <dir>', 'project directory (default: the current directory)');
  if (!(await parseArgv(program, argv))) return undefined;
  const flags = program.opts<{ json?: boolean; project?: string }>();
  return { json: flags.json === true, ...(flags.project !== undefined ? { project: flags.project } : {}) };
}

/** `ralph-stats` through its parser: --project, errors (the fast path answers it alone and with --json). */
export const program = (): Promise<void> =>
  runMain(
    async (argv) => {
      const flags = await parseStatsArgs(argv);
      return flags ? showStats(flags) : 0;
    },
    { json: true },
  );
