import type { Binary } from './fast-path.js';

/**
 * Each command in bin/ through its parser: every flag, subcommand and error
 * message. fast-path.ts answers the argv its table lists without these.
 */
const PROGRAMS: Record<Binary, () => Promise<void>> = {
  ralph: async () => {
    const [{ runMain }, { runRalph }] = await Promise.all([import('./main.js'), import('./ralph-command.js')]);
    await runMain(runRalph, { json: true });
  },
  'ralph-setup': async () => {
    const [{ runMain }, { runSetup }] = await Promise.all([import('./main.js'), import('./ralph-setup.js')]);
    await runMain(runSetup);
  },
  'ralph-enable': async () => {
    const [{ runMain }, { enableCommand, enableJsonErrorFields }] = await Promise.all([import('./main.js'), import('./ralph-enable.js')]);
    await runMain(enableCommand, { json: true, jsonErrorFields: enableJsonErrorFields });
  },
  'ralph-import': async () => {
    const [{ runMain }, { importCommand }] = await Promise.all([import('./main.js'), import('./ralph-import.js')]);
    await runMain(importCommand);
  },
  'ralph-monitor': async () => {
    const [{ runMonitorProcess }, { parseMonitorArgs }] = await Promise.all([import('./monitor-process.js'), import('./ralph-monitor-args.js')]);
    await runMonitorProcess((argv) => parseMonitorArgs(argv));
  },
  'ralph-stats': async () => {
    const [{ runMain }, { parseStatsArgs }, { showStats }] = await Promise.all([
      import('./main.js'),
      import('./ralph-stats-args.js'),
      import('./commands/stats-command.js'),
    ]);
    await runMain(
      async (argv) => {
        const flags = await parseStatsArgs(argv);
        return flags ? showStats(flags) : 0;
      },
      { json: true },
    );
  },
};

/** Runs a command through its parser, whatever the argv (what the fast path is held equal to). */
export function runProgram(binary: Binary): Promise<void> {
  return PROGRAMS[binary]();
}
