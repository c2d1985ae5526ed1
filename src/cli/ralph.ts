import { runMain } from './main.js';
import { runRalph } from './ralph-command.js';

await runMain((argv) => runRalph(argv), { json: true });
