import { answerQuickly } from './ralph-quick-answers.js';
import { quickRalphArgs } from './ralph-quick-args.js';

// Each shape loads only what answers it: the quick answers are here, the
// status commands and the parser with every other command are files of their
// own in the bundle.
const argv = process.argv.slice(2);
if (!answerQuickly(argv)) {
  const quick = quickRalphArgs(argv);
  if (quick) await (await import('./ralph-status.js')).runQuickStatus(quick.action, quick.json);
  else await import('./ralph-with-parser.js');
}
