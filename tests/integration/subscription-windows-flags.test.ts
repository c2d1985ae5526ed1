// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph } from '../helpers/run-cli.js';

const EXPECTED =
  'expected warning, warning:<windows> or a percentage such as 80% (windows: a comma list of five_hour, seven_day, seven_day_opus, seven_day_sonnet, overage)';

describe('malformed subscription-window and token flags (exit 2, before any call)', () => {
  it.each([
    [['--park-at', 'soon'], `invalid value for --park-at: "soon"; ${EXPECTED} ('soon' is neither 'warning' nor a percentage such as 80%)`],
    [['--park-at', 'warning:weekly'], `invalid value for --park-at: "warning:weekly"; ${EXPECTED} (unknown window 'weekly')`],
    [['--stop-at', '120%'], `invalid value for --stop-at: "120%"; ${EXPECTED} (120% is not a percentage from 1% to 100%)`],
    [['--max-tokens', '-1'], 'invalid value for --max-tokens: "-1"; expected a whole number ≥ 0'],
  ])('%j', async (args, message) => {
    const r = await ralph([...args, '--dry-run'], ralphProject());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('a malformed PARK_AT in .ralphrc names the file, the key and what it takes', async () => {
    const r = await ralph(['--dry-run'], ralphProject({ ralphrc: 'PARK_AT=warning:weekly\n' }));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`PARK_AT="warning:weekly" is invalid; ${EXPECTED} (unknown window 'weekly')`);
  });
});
