// Writes `ralph --help` as the bundled cli prints it to a pipe, so later runs can
// answer --help without loading commander (src/cli/ralph-quick-answers.ts).
// The old text is removed first: the cli then renders the help through
// commander, never from a stale copy.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../dist/bundle/ralph-help.txt', import.meta.url));
const cli = fileURLToPath(new URL('../dist/bundle/ralph.cjs', import.meta.url));
rmSync(target, { force: true });
const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
writeFileSync(target, help);
