// What `ralph --live` shows of a recorded stream-json run, on stderr and in live.log, through
// the built CLI (npm test builds first): every piece, once, in order, between Ralph's own lines.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeProgressReader } from '../../src/backends/claude/claude-progress.js';
import { createLiveRenderer } from '../../src/ui/live-renderer.js';
import { PLANTED_SECRETS, plantedIn } from '../helpers/planted-secrets.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, runCli } from '../helpers/run-cli.js';
import { waitFor } from '../helpers/wait-for.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-cli');
const LIVE_HEADER = /^\n\n=== Loop #1 - [^\n]+ ===\n/;

/** The text --live shows for these stream-json lines, rendered in-process. */
function rendered(stream: string): string {
  const reader = createClaudeProgressReader();
  const view = createLiveRenderer({ showToolArgs: true });
  const lines = stream.split('\n').filter((line) => line.trim() !== '');
  return lines.flatMap((line) => reader.read(JSON.parse(line) as unknown).map((event) => view.push(event))).join('');
}

function liveLog(dir: string): string {
  return readFileSync(join(dir, '.ralph', 'live.log'), 'utf8');
}

/** A recorded stream with its middle events repeated until it is a few megabytes: many pipe chunks. */
function longStream(fixture: string, copies: number): string {
  const lines = readFileSync(join(FIXTURES, fixture), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const middle = lines.slice(1, -1);
  return `${[lines[0], ...Array.from({ length: copies }, () => middle).flat(), lines.at(-1)].join('\n')}\n`;
}

describe('ralph --live', () => {
  const fixture = (name: string): [string, string] => [name, readFileSync(join(FIXTURES, name), 'utf8')];
  it.each([
    fixture('stream-json-success.jsonl'),
    fixture('stream-json-partial-messages.jsonl'),
    fixture('stream-json-rate-limit-retried-success.jsonl'),
    ['a long stream', longStream('stream-json-partial-messages.jsonl', 300)],
  ])('shows %s whole, in order, right after the line that starts the call', async (_name, stream) => {
    const dir = ralphProject();
    const expected = rendered(stream);
    expect(expected.length).toBeGreaterThan(0);
    const fake = fakeClaude([{ stdout: stream }]);
    const r = await ralph(['--live', '--show-tool-args', '--pause', '0', '--max-loops', '1'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    const at = r.stderr.indexOf(expected);
    expect(at).toBeGreaterThan(0);
    expect(r.stderr.slice(0, at)).toMatch(/Executing Claude Code \(call 1; timeout \d+ min\)\n$/);
    expect(r.stderr.indexOf(expected, at + 1)).toBe(-1);
    const log = liveLog(dir);
    expect(log).toMatch(LIVE_HEADER);
    expect(log.replace(LIVE_HEADER, '')).toBe(expected);
  });

  it('shows the secrets the agent echoes redacted, on stderr and in live.log', async () => {
    const dir = ralphProject();
    const values = Object.values(PLANTED_SECRETS);
    const events = values.map((value, i) =>
      JSON.stringify({ type: 'assistant', message: { id: `m${i}`, content: [{ type: 'text', text: `é ⚡ found ${value} here` }] } }),
    );
    const stream = `${events.join('\n')}\n${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done' })}\n`;
    const fake = fakeClaude([{ stdout: stream }]);
    const r = await ralph(['--live', '--pause', '0', '--max-loops', '1'], dir, { ...fake.env, ...PLANTED_SECRETS });
    expect(r.exitCode).toBe(7);
    expect(plantedIn(r.stderr)).toEqual([]);
    expect(plantedIn(liveLog(dir))).toEqual([]);
    expect(r.stderr).toContain('é ⚡ found [REDACTED:GITHUB_TOKEN] here\n');
    expect(liveLog(dir)).toContain('é ⚡ found [REDACTED:GITHUB_TOKEN] here\n');
  });

  it('keeps every piece shown before Ctrl+C, on stderr and in live.log', async () => {
    const dir = ralphProject();
    const stream = readFileSync(join(FIXTURES, 'stream-json-success.jsonl'), 'utf8');
    const lines = stream.split('\n').filter((line) => line.trim() !== '');
    const before = `${lines.slice(0, -1).join('\n')}\n`;
    const expected = rendered(before);
    const fake = fakeClaude([{ stdout_first: before, shell: 'sleep 30' }]);
    const running = runCli('ralph', ['--live', '--show-tool-args', '--pause', '0', '--max-loops', '1'], dir, fake.env);
    await waitFor(() => existsSync(join(dir, '.ralph', 'live.log')) && liveLog(dir).endsWith(expected));
    running.kill('SIGINT');
    const r = await running;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toContain(expected);
    expect(liveLog(dir).replace(LIVE_HEADER, '')).toBe(expected);
  });
});
