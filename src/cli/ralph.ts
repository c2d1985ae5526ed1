import { answerQuickly } from './ralph-quick-answers.js';
import { quickRalphArgs } from './ralph-quick-args.js';

// Each shape loads only what answers it: the quick answers are here, the
// status commands and the parser with every other command are files of their
// own in the bundle. No top-level await: the bundle of this file is CommonJS,
// so Node starts it without its ES module loader.
const argv = process.argv.slice(2);
if (!answerQuickly(argv)) {
  const quick = quickRalphArgs(argv);
  if (quick) void import('./ralph-status.js').then(({ runQuickStatus }) => runQuickStatus(quick.action, quick.json));
  else void import('./ralph-with-parser.js');
}
