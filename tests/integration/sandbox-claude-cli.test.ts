// The real Claude Code CLI (the pinned devDependency) run by `ralph --sandbox` against a fake
// Anthropic Messages API on 127.0.0.1: offline, contained, to project_complete. Claude Code's
// own Write and Bash tools run inside the sandbox too.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMessagesApi, type FakeMessagesApi, type MessagesTurn } from '../helpers/fake-api/anthropic-messages.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph, readJson, readJsonLines } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';
import { AGENT_CLI_BIN } from '../helpers/agent-clis.js';
import { skipNote } from '../helpers/skip-note.js';
import { claudeQuietEnv } from '../helpers/claude-home.js';

const CLAUDE_BIN = AGENT_CLI_BIN;
const FAKE_KEY = 'sk-ant-fake-key-for-sandbox-tests-7Qm2';
const unavailable = skipNote(
  'the sandbox tests',
  bwrapUnavailable() ?? (existsSync(join(CLAUDE_BIN, 'claude')) ? undefined : 'the Claude Code CLI is not installed (npm run agent-clis)'),
);
let api: FakeMessagesApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

const done = (text: string): string =>
  `${text}\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\nTASKS_COMPLETED_THIS_LOOP: 1\nFILES_MODIFIED: 1\nTESTS_STATUS: NOT_RUN\nWORK_TYPE: IMPLEMENTATION\nEXIT_SIGNAL: true\nRECOMMENDATION: Nothing left\n---END_RALPH_STATUS---`;

describe.skipIf(unavailable !== undefined)(`ralph --sandbox with the real Claude Code${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('runs a contained loop to project_complete; its tools write in the project and not in $HOME', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    const turns: MessagesTurn[] = [
      { text: 'Writing the file.', toolUse: [{ name: 'Write', input: { file_path: join(dir, 'hello.txt'), content: 'hello from the sandbox\n' } }] },
      {
        toolUse: [
          { name: 'Bash', input: { command: `echo escaped > ${join(world.home, 'escaped.txt')} || echo refused > refused.txt`, description: 'Try home' } },
        ],
      },
      { text: done('Wrote hello.txt.') },
      { text: done('Everything is done.') },
    ];
    api = await startFakeMessagesApi(turns);
    const claudeDir = join(world.home, '.claude');
    mkdirSync(claudeDir);
    const env = world.env({
      PATH: `${CLAUDE_BIN}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
      ...claudeQuietEnv(claudeDir, api.url),
      ANTHROPIC_API_KEY: FAKE_KEY,
    });
    const r = await ralph(['--sandbox', '--backend', 'claude', '--pause', '0', '--max-loops', '4', '--allowed-tools', 'Write,Read,Bash'], dir, env, 180_000);
    expect(r.stderr).toContain('Sandbox on');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the sandbox\n');
    expect(readFileSync(join(dir, 'refused.txt'), 'utf8')).toBe('refused\n');
    expect(existsSync(join(world.home, 'escaped.txt'))).toBe(false);
    expect(api.served()).toBe(4);
    expect(api.requests.every((q) => q.apiKey === undefined || q.apiKey === FAKE_KEY)).toBe(true);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', loop_count: 2, backend: 'claude' });
    const refused = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'sandbox.refused');
    expect(refused.some((e) => String((e['data'] as { detail: string }).detail).includes('escaped.txt'))).toBe(true);
  });
});
