import { createLoopPaneDeps, parseLoopPaneArgs, runLoopPane } from '../features/monitor/loop-pane.js';
import { runMain } from './main.js';

// The left pane of `ralph --monitor` runs this; a closed pane must not crash it.
process.stdout.on('error', () => undefined);

await runMain(async (argv) => {
  const options = parseLoopPaneArgs(argv);
  return runLoopPane(options, createLoopPaneDeps(options.socket));
});
