// `ralph --review` with the real Codex CLI, Gemini CLI and OpenCode (tests/agent-clis), each against its
// fake model API on 127.0.0.1: the worker writes hello.txt with a typo, the reviewer (a fresh
// session in the agent's own read-only mode) tries to write a file and is refused, then asks for
// the fix; the worker gets the finding and fixes it; the second review approves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_TEST_MODEL, codexHome } from '../helpers/codex-home.js';
import { geminiHome, startFakeGeminiApi, type FakeGeminiApi, type GeminiTurn } from '../helpers/fake-api/gemini.js';
import { shellCall, startFakeResponsesApi, type FakeResponsesApi } from '../helpers/fake-api/openai-responses.js';
import { startFakeChatApi, type FakeChatApi, type RecordedRequest } from '../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, opencodeOfflineEnv } from '../helpers/fake-api/opencode-offline-env.js';
import { agentCli } from '../helpers/agent-clis.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, readJsonLines, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const complete = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', WORK_TYPE: 'IMPLEMENTATION' })}`;
const review = (verdict: string, ...findings: string[]): string =>
  `I read the diff.\n---RALPH_REVIEW---\nVERDICT: ${verdict}\nFINDINGS:\n${findings.map((f) => `- ${f}\n`).join('')}---END_RALPH_REVIEW---`;
const FINDING = 'hello.txt says helo, not hello';
// With a passing verify gate one completion claim ends the loop: each review comes right after the worker's answer.
const ARGS = ['--review', '--verify', 'grep -c hel hello.txt', '--pause', '0', '--max-loops', '5'];

function expectRejectedThenApproved(dir: string, stderr: string, backend: string): void {
  expect(stderr).toContain('Review 1: CHANGES_REQUESTED');
  expect(stderr).toContain(`   - ${FINDING}`);
  expect(stderr).toContain('Review 2: APPROVED');
  expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');
  expect(existsSync(join(dir, 'reviewer.txt'))).toBe(false);
  expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({
    exit_reason: 'project_complete',
    review: { backend, reviews: 2, rejected_in_a_row: 0, last_verdict: 'APPROVED' },
  });
  const ends = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'review.end');
  expect(ends.map((e) => (e['data'] as { verdict: string }).verdict)).toEqual(['CHANGES_REQUESTED', 'APPROVED']);
}

let codexApi: FakeResponsesApi | undefined;
let geminiApi: FakeGeminiApi | undefined;
let opencodeApi: FakeChatApi | undefined;
afterEach(async () => {
  await codexApi?.close();
  await geminiApi?.close();
  await opencodeApi?.close();
  codexApi = undefined;
  geminiApi = undefined;
  opencodeApi = undefined;
});

/** The names of the tools an OpenCode request offered the model. */
function offeredTools(q: RecordedRequest): string[] {
  const tools = Array.isArray(q.body['tools']) ? (q.body['tools'] as Array<{ function?: { name?: string } }>) : [];
  return tools.map((t) => t.function?.name ?? '');
}

describe('ralph --review with the real agent CLIs', { timeout: 300_000 }, () => {
  it('Codex: the reviewer runs in --sandbox read-only, its shell write is refused; rejected, then approved', async () => {
    const dir = ralphProject({ ralphrc: `CODEX_CMD="${agentCli('codex')}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\n` });
    codexApi = await startFakeResponsesApi();
    codexApi.script([
      shellCall('echo helo > hello.txt'),
      { text: complete('Wrote hello.txt.') },
      shellCall('echo reviewer > reviewer.txt'),
      { text: review('CHANGES_REQUESTED', FINDING) },
      shellCall('echo hello > hello.txt'),
      { text: complete('Fixed the typo.') },
      { text: review('APPROVED') },
    ]);
    const { PATH: _path, ...env } = codexHome(tempDir('review-codex-home-'), codexApi.baseUrl);
    const r = await ralph([...ARGS, '--backend', 'codex'], dir, cleanEnv(env), 240_000);
    expect(r.exitCode, r.stderr).toBe(0);
    expectRejectedThenApproved(dir, r.stderr, 'codex');
    const requests = codexApi.requests;
    const isReview = (q: (typeof requests)[number]): boolean => JSON.stringify(q.body.input ?? []).includes('---RALPH_REVIEW---');
    const reviews = requests.filter(isReview);
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    for (const q of reviews) expect(q.headers['x-codex-turn-metadata']).toContain('"sandbox_mode":"read-only"');
    for (const q of requests.filter((q) => !isReview(q))) expect(q.headers['x-codex-turn-metadata']).toContain('"sandbox_mode":"danger-full-access"');
    // The worker's call after the rejection carries the finding.
    expect(requests.some((q) => !isReview(q) && JSON.stringify(q.body.input ?? []).includes(`- ${FINDING}`))).toBe(true);
  });

  it('Gemini CLI: the reviewer runs in the default approval mode with a read-only policy, its write_file is refused; rejected, then approved', async () => {
    const dir = ralphProject({ ralphrc: `GEMINI_CMD="${agentCli('gemini')}"\nGEMINI_MODEL=gemini-2.5-flash\n` });
    const write = (path: string, content: string): GeminiTurn => ({ calls: [{ name: 'write_file', args: { file_path: path, content } }] });
    geminiApi = await startFakeGeminiApi([
      write('hello.txt', 'helo\n'),
      { text: complete('Wrote hello.txt.') },
      write('reviewer.txt', 'written by the reviewer\n'),
      { text: review('CHANGES_REQUESTED', FINDING) },
      write('hello.txt', 'hello\n'),
      { text: complete('Fixed the typo.') },
      { text: review('APPROVED') },
    ]);
    const env = cleanEnv(geminiHome(tempDir('review-gemini-home-'), geminiApi));
    const r = await ralph([...ARGS, '--backend', 'gemini', '--allowed-tools', 'Write,Read'], dir, env, 240_000);
    expect(r.exitCode, r.stderr).toBe(0);
    expectRejectedThenApproved(dir, r.stderr, 'gemini');
    // The policy of each review call allows reading only and denies writing and the shell.
    const logs = join(dir, '.ralph', 'logs');
    const policies = readdirSync(logs)
      .filter((name) => name.endsWith('.policy.toml'))
      .map((name) => readFileSync(join(logs, name), 'utf8'))
      .filter((text) => text.includes('read-only call'));
    expect(policies).toHaveLength(2);
    for (const policy of policies) {
      expect(policy).toContain('toolName = "write_file"\ndecision = "deny"');
      expect(policy).toContain('toolName = "run_shell_command"\ndecision = "deny"');
      expect(policy).toContain('toolName = "read_file"\ndecision = "allow"');
    }
  });

  it('OpenCode: the reviewer runs with edit and bash denied, for its subagents too; its writes and shell commands are refused; rejected, then approved', async () => {
    const ralphrc = `OPENCODE_CMD="${agentCli('opencode')}"\nOPENCODE_MODEL=${FAKE_MODEL}\nALLOWED_TOOLS="Write,Read,Edit,Bash"\n`;
    const dir = ralphProject({ ralphrc });
    opencodeApi = await startFakeChatApi([
      { tool: 'bash', args: { command: 'echo helo > hello.txt', description: 'Write hello.txt' } },
      { text: complete('Wrote hello.txt.') },
      // The reviewer tries to write, to run a command, and to have a subagent of its own write.
      { tool: 'write', args: { filePath: join(dir, 'reviewer.txt'), content: 'written by the reviewer\n' } },
      { tool: 'bash', args: { command: 'echo reviewer > reviewer.txt', description: 'Write as the reviewer' } },
      { tool: 'task', args: { description: 'Write a file', prompt: 'Write reviewer.txt', subagent_type: 'general' } },
      { tool: 'write', args: { filePath: join(dir, 'reviewer.txt'), content: 'written by a subagent\n' } },
      { text: 'The subagent could not write.' },
      { text: review('CHANGES_REQUESTED', FINDING) },
      { tool: 'bash', args: { command: 'echo hello > hello.txt', description: 'Fix the typo' } },
      { text: complete('Fixed the typo.') },
      { text: review('APPROVED') },
    ]);
    const env = cleanEnv(opencodeOfflineEnv(tempDir('review-opencode-home-'), opencodeApi.baseURL));
    const r = await ralph([...ARGS, '--backend', 'opencode'], dir, env, 240_000);
    expect(r.exitCode, r.stderr).toBe(0);
    expectRejectedThenApproved(dir, r.stderr, 'opencode');
    expect(opencodeApi.served()).toBe(11);
    const requests = opencodeApi.requests.filter((q) => !JSON.stringify(q.body['messages'] ?? '').includes('You are a title generator'));
    const messages = (q: RecordedRequest): string => JSON.stringify(q.body['messages'] ?? '');
    const isWorker = (q: RecordedRequest): boolean => messages(q).includes('Work through .ralph/fix_plan.md');
    // The worker's calls may write and run commands. OpenCode leaves what OPENCODE_PERMISSION
    // denies out of what the model is offered: the reviewer's calls, and its subagent's, read only.
    const workers = requests.filter(isWorker);
    const readers = requests.filter((q) => !isWorker(q));
    expect(workers).toHaveLength(4);
    expect(readers).toHaveLength(7);
    for (const q of workers) expect(offeredTools(q)).toEqual(expect.arrayContaining(['bash', 'edit', 'write', 'read']));
    for (const q of readers) {
      expect(offeredTools(q)).toContain('read');
      for (const tool of ['bash', 'edit', 'write', 'patch', 'apply_patch', 'webfetch', 'websearch']) expect(offeredTools(q)).not.toContain(tool);
    }
    // Each attempt came back to the model as a tool it does not have.
    const answers = readers.map(messages).join('\n');
    for (const tool of ['write', 'bash']) expect(answers).toContain(`Model tried to call unavailable tool '${tool}'`);
    expect(answers).toContain('The subagent could not write.');
    expect(workers.some((q) => messages(q).includes(`- ${FINDING}`))).toBe(true);
  });
});
