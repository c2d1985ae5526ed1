// One project worked on by every agent in turn, each through its real CLI (Claude Code, Codex,
// Gemini CLI, OpenCode) against its fake model API on 127.0.0.1, then the mock: a session one
// agent saved is never resumed by the next (the switch starts a new session and says so), and
// with the .gitignore ralph-setup writes, nothing Ralph or a backend writes shows up in git.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentDisplayName, type BackendName } from '../../../src/backends/registry.js';
import { CODEX_TEST_MODEL, codexHome } from '../../helpers/codex-home.js';
import { startFakeMessagesApi } from '../../helpers/fake-api/anthropic-messages.js';
import { geminiHome, startFakeGeminiApi } from '../../helpers/fake-api/gemini.js';
import { shellCall, startFakeResponsesApi } from '../../helpers/fake-api/openai-responses.js';
import { startFakeChatApi } from '../../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, opencodeOfflineEnv } from '../../helpers/fake-api/opencode-offline-env.js';
import { git } from '../../helpers/git-repo.js';
import { gitStatus, ralphProject, writeMockScript } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, ROOT, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AGENT_CLI_BIN } from '../../helpers/agent-clis.js';
import { claudeHome } from '../../helpers/claude-home.js';

const BIN = AGENT_CLI_BIN;
const working = (text: string): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** Sets up one backend's fake API and returns the environment its run needs; its turn writes `<name>.txt`. */
async function backendRun(name: BackendName, dir: string): Promise<Record<string, string>> {
  const file = `${name}.txt`;
  switch (name) {
    case 'claude': {
      const api = await startFakeMessagesApi([
        { toolUse: [{ name: 'Write', input: { file_path: join(dir, file), content: 'claude\n' } }] },
        { text: working('Wrote claude.txt.') },
      ]);
      closers.push(() => api.close());
      return cleanEnv({ ...claudeHome('switch-claude-home-', api.url), ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-switch-tests-7Qm2' });
    }
    case 'codex': {
      const api = await startFakeResponsesApi();
      closers.push(() => api.close());
      api.script([shellCall(`echo codex > ${file}`), { text: working('Wrote codex.txt.') }]);
      const { PATH: _path, ...env } = codexHome(tempDir('switch-codex-'), api.baseUrl);
      return cleanEnv(env);
    }
    case 'gemini': {
      const api = await startFakeGeminiApi([
        { calls: [{ name: 'write_file', args: { file_path: file, content: 'gemini\n' } }] },
        { text: working('Wrote gemini.txt.') },
      ]);
      closers.push(() => api.close());
      return cleanEnv(geminiHome(tempDir('switch-gemini-home-'), api));
    }
    case 'opencode': {
      const api = await startFakeChatApi([{ tool: 'write', args: { filePath: file, content: 'opencode\n' } }, { text: working('Wrote opencode.txt.') }]);
      closers.push(() => api.close());
      return cleanEnv(opencodeOfflineEnv(tempDir('switch-opencode-home-'), api.baseURL));
    }
    case 'mock':
      // The script is the user's own file, committed like PROMPT.md.
      writeMockScript(dir, [{ output: working('Wrote mock.txt.'), session_id: 'mock-session-1', files: { [file]: 'mock\n' } }]);
      git(dir, 'add', '.ralph/mock_responses.json');
      git(dir, 'commit', '-q', '-m', 'mock script');
      return cleanEnv();
  }
}

const RALPHRC = [
  `CLAUDE_CODE_CMD="${join(BIN, 'claude')}"`,
  `CODEX_CMD="${join(BIN, 'codex')}"`,
  `CODEX_MODEL=${CODEX_TEST_MODEL}`,
  `GEMINI_CMD="${join(BIN, 'gemini')}"`,
  'GEMINI_MODEL=gemini-2.5-flash',
  `OPENCODE_CMD="${join(BIN, 'opencode')}"`,
  `OPENCODE_MODEL=${FAKE_MODEL}`,
  'RALPH_MOCK_SCRIPT=.ralph/mock_responses.json',
  'ALLOWED_TOOLS="Write,Read,Edit,Bash(echo *),Bash(git *)"',
  '',
].join('\n');

describe('one project, every agent in turn', { timeout: 600_000 }, () => {
  it('never resumes another agent’s session, says it starts a new one, and leaves nothing of Ralph’s in git', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC, files: { '.gitignore': readFileSync(join(ROOT, 'templates', 'gitignore'), 'utf8') } });
    const order: BackendName[] = ['claude', 'codex', 'gemini', 'opencode', 'mock'];
    let previous: BackendName | undefined;
    for (const name of order) {
      const env = await backendRun(name, dir);
      const r = await ralph(['--backend', name, '--pause', '0', '--max-loops', '1'], dir, env, 240_000);
      const agent = agentDisplayName(name);
      expect(readJson(join(dir, '.ralph', 'status.json')), `${name}: ${r.stderr}`).toMatchObject({ exit_reason: 'max_loops', backend: name });
      expect(r.stderr, name).not.toContain('Resuming');
      if (previous !== undefined) {
        expect(r.stderr, name).toMatch(
          new RegExp(`The saved session \\S+ belongs to ${agentDisplayName(previous)}, not ${agent}: starting a new ${agent} session`),
        );
      }
      expect(readJson(join(dir, '.ralph', '.claude_session_id')), name).toMatchObject({ backend: name });
      // Only the agent's own work is new to git: every file Ralph and the backend wrote is ignored.
      expect(gitStatus(dir).trim().split('\n'), name).toEqual([`?? ${name}.txt`]);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', `${name}'s work`);
      previous = name;
    }
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: dir, encoding: 'utf8' }).trim().split('\n')).toHaveLength(order.length + 2);
  });
});
