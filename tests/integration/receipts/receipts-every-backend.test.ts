// Every backend's iteration leaves a receipt that fits the published schema and the reader's:
// the mock from its script, the real Claude Code, Codex, Gemini CLI and OpenCode CLIs against
// their fake model APIs on 127.0.0.1 (as backend-switch.test.ts runs them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import type { BackendName } from '../../../src/backends/registry.js';
import { receiptSchema } from '../../../src/state/documents/receipt.js';
import { CODEX_TEST_MODEL, codexHome } from '../../helpers/codex-home.js';
import { startFakeMessagesApi } from '../../helpers/fake-api/anthropic-messages.js';
import { geminiHome, startFakeGeminiApi } from '../../helpers/fake-api/gemini.js';
import { shellCall, startFakeResponsesApi } from '../../helpers/fake-api/openai-responses.js';
import { startFakeChatApi } from '../../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, opencodeOfflineEnv } from '../../helpers/fake-api/opencode-offline-env.js';
import { publishedSchema, schemaProblems } from '../../helpers/json-schema.js';
import { ralphProject, writeMockScript } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AGENT_CLI_BIN } from '../../helpers/agent-clis.js';
import { claudeHome } from '../../helpers/claude-home.js';

const working = (text: string): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const RALPHRC = [
  `CLAUDE_CODE_CMD="${join(AGENT_CLI_BIN, 'claude')}"`,
  `CODEX_CMD="${join(AGENT_CLI_BIN, 'codex')}"`,
  `CODEX_MODEL=${CODEX_TEST_MODEL}`,
  `GEMINI_CMD="${join(AGENT_CLI_BIN, 'gemini')}"`,
  'GEMINI_MODEL=gemini-2.5-flash',
  `OPENCODE_CMD="${join(AGENT_CLI_BIN, 'opencode')}"`,
  `OPENCODE_MODEL=${FAKE_MODEL}`,
  'RALPH_MOCK_SCRIPT=.ralph/mock_responses.json',
  'ALLOWED_TOOLS="Write,Read,Edit,Bash(echo *),Bash(git *)"',
  'VERIFY_COMMAND="test -f work.txt"',
  '',
].join('\n');

/** The environment of one backend's run, its fake API serving a turn that writes work.txt. */
async function backendEnv(name: BackendName, dir: string): Promise<Record<string, string>> {
  switch (name) {
    case 'claude': {
      const api = await startFakeMessagesApi([
        { toolUse: [{ name: 'Write', input: { file_path: join(dir, 'work.txt'), content: 'claude\n' } }] },
        { text: working('Wrote work.txt.') },
      ]);
      closers.push(() => api.close());
      return cleanEnv({ ...claudeHome('receipt-claude-home-', api.url), ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-receipt-tests-9Xq4' });
    }
    case 'codex': {
      const api = await startFakeResponsesApi();
      closers.push(() => api.close());
      api.script([shellCall('echo codex > work.txt'), { text: working('Wrote work.txt.') }]);
      const { PATH: _path, ...env } = codexHome(tempDir('receipt-codex-'), api.baseUrl);
      return cleanEnv(env);
    }
    case 'gemini': {
      const api = await startFakeGeminiApi([
        { calls: [{ name: 'write_file', args: { file_path: 'work.txt', content: 'gemini\n' } }] },
        { text: working('Wrote work.txt.') },
      ]);
      closers.push(() => api.close());
      return cleanEnv(geminiHome(tempDir('receipt-gemini-home-'), api));
    }
    case 'opencode': {
      const api = await startFakeChatApi([{ tool: 'write', args: { filePath: 'work.txt', content: 'opencode\n' } }, { text: working('Wrote work.txt.') }]);
      closers.push(() => api.close());
      return cleanEnv(opencodeOfflineEnv(tempDir('receipt-opencode-home-'), api.baseURL));
    }
    case 'mock':
      writeMockScript(dir, [
        {
          output: working('Wrote work.txt.'),
          session_id: 'mock-session-1',
          files: { 'work.txt': 'mock\n' },
          cost_usd: 0.01,
          input_tokens: 100,
          output_tokens: 20,
        },
      ]);
      return cleanEnv();
  }
}

function receiptLines(dir: string): unknown[] {
  return readFileSync(join(dir, '.ralph', 'logs', 'receipts.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
}

describe('a receipt per iteration, every backend', { timeout: 600_000 }, () => {
  const published = publishedSchema('receipt.schema.json');

  it.each<BackendName>(['mock', 'claude', 'codex', 'gemini', 'opencode'])('%s: one receipt that fits both schemas and holds the call', async (name) => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await backendEnv(name, dir);
    const r = await ralph(['--backend', name, '--pause', '0', '--max-loops', '1'], dir, env, 240_000);
    expect(r.exitCode, r.stderr).toBe(7);
    const lines = receiptLines(dir);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(schemaProblems(published, line)).toEqual([]);
    const receipt = v.parse(receiptSchema, line);
    expect(receipt).toEqual(line);
    expect(receipt).toMatchObject({ loop: 1, iteration: 1, backend: name, outcome: 'success', exit: { decision: 'continue' } });
    expect(receipt.verify).toMatchObject({ command: 'test -f work.txt', passed: true });
    expect(receipt.files_changed).toBeGreaterThan(0);
    expect(receipt.session_id).not.toBeNull();
    expect(receipt.tokens.input + receipt.tokens.output).toBeGreaterThan(0);
    expect(['reported', 'estimated', 'unknown']).toContain(receipt.cost.source);
  });
});
