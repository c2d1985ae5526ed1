// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, readJson } from '../helpers/run-cli.js';

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

describe('what the flags ask of Claude Code', () => {
  it('stream-json without partial messages on every call, even where .ralphrc asks for text, which then gives nothing up', async () => {
    const dir = ralphProject({ ralphrc: 'CLAUDE_OUTPUT_FORMAT=text\n' });
    const fake = fakeClaude([{ fixture: 'stream-json-success.jsonl' }]);
    const r = await ralph(['--stop-at', 'warning', '--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(r.exitCode, r.stderr).toBe(7);
    const argv = fake.calls()[0]?.argv ?? [];
    expect(argv.slice(0, 3)).toEqual(['--output-format', 'stream-json', '--verbose']);
    expect(argv).not.toContain('--include-partial-messages');
    expect(r.stderr).not.toContain("Output format 'text'");
    // The answer was read as structured output: its session is kept for the next call.
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_loops', session_id: '280df34f-c3ad-4e13-8b54-00f4d7cd8111' });
  });

  it('json, as before, without the flags', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json' }]);
    await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(fake.calls()[0]?.argv.slice(0, 2)).toEqual(['--output-format', 'json']);
  });
});
