// `ralph --review` with the real Claude Code CLI (tests/agent-clis) against a fake Anthropic
// Messages API on 127.0.0.1: the worker writes a file, the reviewer (a fresh, read-only Claude
// Code session) tries to write and is refused by its tools, then asks for a change; the worker,
// resuming its own session, gets every finding and fixes it; the second review approves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMessagesApi, type FakeMessagesApi, type RecordedMessagesRequest } from '../helpers/fake-api/anthropic-messages.js';
import { agentCli } from '../helpers/agent-clis.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, readJsonLines } from '../helpers/run-cli.js';
import { skipNote } from '../helpers/skip-note.js';
import { claudeHome } from '../helpers/claude-home.js';

const unavailable = skipNote(
  'the reviewer tests with Claude Code',
  existsSync(agentCli('claude')) ? undefined : 'the Claude Code CLI is not installed (npm run agent-clis)',
);
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const done = (text: string): string =>
  `${text}\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\nTASKS_COMPLETED_THIS_LOOP: 1\nFILES_MODIFIED: 1\nTESTS_STATUS: PASSING\nWORK_TYPE: IMPLEMENTATION\nEXIT_SIGNAL: true\nRECOMMENDATION: Nothing left\n---END_RALPH_STATUS---`;
const review = (verdict: string, ...findings: string[]): string =>
  `I read the diff.\n---RALPH_REVIEW---\nVERDICT: ${verdict}\nFINDINGS:\n${findings.map((f) => `- ${f}\n`).join('')}---END_RALPH_REVIEW---`;

/** The text of a request's messages, tool results included. */
function conversation(request: RecordedMessagesRequest): string {
  return JSON.stringify(request.body['messages'] ?? []);
}
function toolNames(request: RecordedMessagesRequest): string[] {
  const tools = request.body['tools'];
  return Array.isArray(tools) ? tools.map((t: unknown) => String((t as { name?: unknown }).name)) : [];
}
const isConversation = (q: RecordedMessagesRequest): boolean => q.path.startsWith('/v1/messages') && toolNames(q).length > 0;

describe.skipIf(unavailable !== undefined)(`ralph --review with the real Claude Code${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('rejects, then approves; the reviewer runs read-only in a fresh session and its write is refused', async () => {
    const dir = ralphProject({ fixPlan: '# Fix Plan\n\n## High Priority\n- [ ] write hello.txt saying hello\n' });
    api = await startFakeMessagesApi([
      { toolUse: [{ name: 'Write', input: { file_path: join(dir, 'hello.txt'), content: 'helo\n' } }] },
      { text: done('Wrote hello.txt.') },
      // The reviewer tries to fix it itself: its tools refuse.
      { toolUse: [{ name: 'Write', input: { file_path: join(dir, 'reviewer.txt'), content: 'written by the reviewer\n' } }] },
      { text: review('CHANGES_REQUESTED', 'hello.txt says "helo", not "hello"') },
      { toolUse: [{ name: 'Write', input: { file_path: join(dir, 'hello.txt'), content: 'hello\n' } }] },
      { text: done('Fixed the typo.') },
      { text: review('APPROVED') },
    ]);
    const env = cleanEnv({
      ...claudeHome('review-claude-home-', api.url),
      ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-review-tests-7Qm2',
      CLAUDE_CODE_CMD: agentCli('claude'),
    });
    // With a passing verify gate one completion claim ends the loop: each review comes right after the worker's answer.
    const args = [
      '--review',
      '--backend',
      'claude',
      '--verify',
      'grep -c hel hello.txt',
      '--pause',
      '0',
      '--max-loops',
      '5',
      '--allowed-tools',
      'Write,Read,Edit',
    ];
    const r = await ralph(args, dir, env, 240_000);
    expect(r.stderr).toContain('Review 1: CHANGES_REQUESTED');
    expect(r.stderr).toContain('Review 2: APPROVED');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(dir, 'reviewer.txt'))).toBe(false);

    const calls = api.requests.filter(isConversation);
    const reviewerCalls = calls.filter((q) => conversation(q).includes('---RALPH_REVIEW---'));
    const workerCalls = calls.filter((q) => !conversation(q).includes('---RALPH_REVIEW---'));
    expect(reviewerCalls.length).toBeGreaterThanOrEqual(3);
    for (const q of reviewerCalls) {
      // Read-only: no writing tool and no shell is even offered.
      expect(toolNames(q)).not.toEqual(expect.arrayContaining(['Write']));
      for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash']) expect(toolNames(q)).not.toContain(tool);
      // A fresh session: none of the worker's conversation.
      expect(conversation(q)).not.toContain('Wrote hello.txt.');
    }
    // The first review saw the run's diff and the verify command's output.
    expect(conversation(reviewerCalls[0] as RecordedMessagesRequest)).toContain('+helo');
    expect(conversation(reviewerCalls[0] as RecordedMessagesRequest)).toContain('grep -c hel hello.txt');
    // The worker's call after the rejection carries the finding verbatim and resumes the worker's session.
    const afterRejection = workerCalls.find((q) => conversation(q).includes('hello.txt says \\"helo\\", not \\"hello\\"'));
    expect(afterRejection).toBeDefined();
    expect(conversation(afterRejection as RecordedMessagesRequest)).toContain('Wrote hello.txt.');

    const status = readJson<Record<string, unknown>>(join(dir, '.ralph', 'status.json'));
    expect(status).toMatchObject({
      exit_reason: 'project_complete',
      exit_code: 0,
      review: { backend: 'claude', reviews: 2, rejected_in_a_row: 0, last_verdict: 'APPROVED' },
    });
    expect((status['totals'] as { calls: number }).calls).toBe(4);
    const ends = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'review.end');
    expect(ends.map((e) => (e['data'] as { verdict: string }).verdict)).toEqual(['CHANGES_REQUESTED', 'APPROVED']);
  });
});
