// Without --sandbox the agent can write .ralphrc, and what it writes there would be the next run's
// configuration. The next start says what changed, and a change to what runs or how contained it
// is needs the user's yes: --accept-config-change, or a terminal; otherwise exit 2.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph } from '../helpers/run-cli.js';

describe('a .ralphrc the agent changed during a run', () => {
  it('is reported at the next start, which stops (exit 2) until the change is accepted', async () => {
    const dir = ralphProject({ ralphrc: 'MAX_CALLS_PER_HOUR=100\n' });
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell: `printf 'VERIFY_COMMAND="true"\\nCLAUDE_TIMEOUT_MINUTES=7\\n' >> .ralphrc` }], {
      default: { fixture: 'json-success-tool-use.json' },
    });
    const first = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(first.exitCode).toBe(7);
    expect(readFileSync(join(dir, '.ralphrc'), 'utf8')).toContain('VERIFY_COMMAND');
    // Said as the run ends, too.
    expect(first.stderr).toContain('.ralphrc changed during this run');
    expect(first.stderr).toContain('VERIFY_COMMAND added: "true" [needs your confirmation]');

    const refused = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('.ralphrc changed since the last run:');
    expect(refused.stderr).toContain('VERIFY_COMMAND added: "true" [needs your confirmation]');
    expect(refused.stderr).toContain('CLAUDE_TIMEOUT_MINUTES added: "7"');
    expect(refused.stderr).toContain('.ralphrc changed since the last run in VERIFY_COMMAND, which decide what runs and how it is contained; not started.');
    expect(refused.stderr).toContain('pass --accept-config-change to run with it');
    expect(fake.calls()).toHaveLength(1);

    const accepted = await ralph(['--max-loops', '1', '--pause', '0', '--accept-config-change'], dir, fake.env, 60_000);
    expect(accepted.stderr).toContain('Accepted the changed VERIFY_COMMAND (--accept-config-change).');
    expect(fake.calls()).toHaveLength(2);

    // Accepted once: the next start has nothing to say.
    const again = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(again.stderr).not.toContain('.ralphrc changed');
    expect(fake.calls()).toHaveLength(3);

    // A change to a setting that decides nothing of the kind is said, and the run goes on.
    appendFileSync(join(dir, '.ralphrc'), 'MAX_CALLS_PER_HOUR=50\n');
    const harmless = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(harmless.stderr).toContain('MAX_CALLS_PER_HOUR changed: "100" → "50"');
    expect(harmless.stderr).not.toContain('not started');
    expect(fake.calls()).toHaveLength(4);
  });

  it('refuses --accept-config-change with a value, as a usage error', async () => {
    const dir = ralphProject();
    const r = await ralph(['--accept-config-change=yes', '--max-loops', '1'], dir, undefined, 30_000);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/accept-config-change/);
  });
});
