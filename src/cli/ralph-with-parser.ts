import { runMain } from './main.js';
import { runRalph } from './ralph-command.js';

// `ralph` with an argv that needs commander: every flag, subcommand and error message.
await runMain((argv) => runRalph(argv), { json: true });
