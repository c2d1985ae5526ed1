import { answerQuickly } from './ralph-quick-answers.js';

// The parser and the commands load only when the quick answers do not apply.
if (!answerQuickly(process.argv.slice(2))) {
  const { runMain } = await import('./main.js');
  const { runRalph } = await import('./ralph-command.js');
  await runMain((argv) => runRalph(argv), { json: true });
}
