import { createLoopPaneDeps, runLoopPane } from '../features/observe/monitor/loop-pane.js';
import { parseLoopPaneArgs } from './loop-pane-args.js';
import { runMain } from './main.js';
import { processIo } from './program.js';

// The left pane of `ralph --monitor` runs this; a closed pane must not crash it.
process.stdout.on('error', () => undefined);

await runMain(async (argv) => {
  const options = await parseLoopPaneArgs(argv, processIo);
  if (!options) return 0;
  return runLoopPane(options, createLoopPaneDeps(options.socket));
});
