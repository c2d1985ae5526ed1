// A token the agent splits over two assistant messages of a real stream is still redacted in
// `ralph --live` output and live.log: Ralph prints a line break between the messages, which must
// not hide the token from the redactor (deltas of one streamed message: the unit test of
// LiveTextRedactor).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph } from '../helpers/run-cli.js';

const TOKEN = 'ghp_SPLITacrossTwoMessages000000000001';
const HALVES = [TOKEN.slice(0, 17), TOKEN.slice(17)] as const;

const assistant = (id: string, text: string): string => JSON.stringify({ type: 'assistant', message: { id, content: [{ type: 'text', text }] } });
const result = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done' });

/** The output with every line break removed: what a reader puts together from the two halves. */
const joined = (text: string): string => text.replace(/\n/g, '');

describe('ralph --live, a secret split across messages', () => {
  it.each([
    ['two assistant messages', [assistant('m1', `the token is ${HALVES[0]}`), assistant('m2', `${HALVES[1]} and that is all`)]],
    [
      'two assistant messages with a tool call between',
      [
        assistant('m1', `the token is ${HALVES[0]}`),
        JSON.stringify({ type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'true' } }] } }),
        assistant('m3', `${HALVES[1]} and that is all`),
      ],
    ],
  ])('%s', async (_name, events) => {
    const dir = ralphProject();
    const stream = `${[...events, result].join('\n')}\n`;
    const fake = fakeClaude([{ stdout: stream }]);
    const r = await ralph(['--live', '--pause', '0', '--max-loops', '1'], dir, { ...fake.env, GITHUB_TOKEN: TOKEN });
    expect(r.exitCode).toBe(7);
    const liveLog = readFileSync(join(dir, '.ralph', 'live.log'), 'utf8');
    for (const shown of [r.stderr, liveLog]) {
      expect(shown).toContain('the token is [REDACTED:GITHUB_TOKEN]');
      expect(shown).toContain(' and that is all');
      expect(joined(shown)).not.toContain(TOKEN);
      expect(shown).not.toContain(HALVES[0]);
      expect(shown).not.toContain(HALVES[1]);
    }
  });
});
