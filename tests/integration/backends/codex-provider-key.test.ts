// A Codex user with a model provider of their own: the key its `env_key` names (in config.toml,
// or in a `-c` of CODEX_EXTRA_ARGS) is Codex's credential, passed to it and kept from the commands
// it runs and from everything Ralph writes (one loop each, ended by --max-loops, never by an agent failure). The built `ralph` against the real Codex CLI and a
// fake Responses API on 127.0.0.1 (npm run build first).
import { agentCli } from '../../helpers/agent-clis.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_TEST_MODEL, codexHome, type CodexHomeOptions } from '../../helpers/codex-home.js';
import { FAKE_API_KEY, shellCall, startFakeResponsesApi, type FakeResponsesApi } from '../../helpers/fake-api/openai-responses.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const CODEX_BIN = agentCli('codex');
const complete = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', WORK_TYPE: 'IMPLEMENTATION' })}`;

let api: FakeResponsesApi;
beforeAll(async () => {
  api = await startFakeResponsesApi();
});
afterAll(async () => api.close());

function codexEnv(options: CodexHomeOptions): Record<string, string> {
  const { PATH: _path, ...env } = codexHome(tempDir('codex-home-'), api.baseUrl, options);
  return cleanEnv(env);
}

function ralphFiles(dir: string): string {
  const read = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? read(join(d, e.name)) : [readFileSync(join(d, e.name), 'utf8')]));
  return read(join(dir, '.ralph')).join('\n');
}

describe("Codex's own provider key", () => {
  it('passes the env_key of a model provider in config.toml (AZURE_OPENAI_API_KEY) to Codex, and to nothing else', async () => {
    const dir = ralphProject({ ralphrc: `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\n` });
    const first = api.requests.length;
    api.script([shellCall('env > .ralph/command-env.txt'), { text: complete('Done.') }]);
    const r = await ralph(['--backend', 'codex', '--pause', '0', '--max-loops', '1'], dir, codexEnv({ keyVar: 'AZURE_OPENAI_API_KEY' }));
    expect(r.stderr).not.toContain('Missing environment variable');
    expect(r.stderr).toContain('Exit reason: max_loops');
    expect(api.requests.length - first).toBe(2);
    expect(api.requests.slice(first).every((q) => q.headers['authorization'] === `Bearer ${FAKE_API_KEY}`)).toBe(true);
    expect(readFileSync(join(dir, '.ralph', 'command-env.txt'), 'utf8')).not.toContain('AZURE_OPENAI_API_KEY');
    expect(`${r.stdout}${r.stderr}${ralphFiles(dir)}`).not.toContain(FAKE_API_KEY);
  });

  it('passes the env_key that a -c in CODEX_EXTRA_ARGS names', async () => {
    const ralphrc = `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\nCODEX_EXTRA_ARGS='-c model_providers.fake.env_key="CORP_LLM_SECRET"'\n`;
    const dir = ralphProject({ ralphrc });
    const first = api.requests.length;
    api.script([{ text: complete('Done.') }]);
    // config.toml names another variable, which is not set: only the -c one holds the key.
    const r = await ralph(['--backend', 'codex', '--pause', '0', '--max-loops', '1'], dir, {
      ...codexEnv({ keyVar: 'UNSET_KEY_VAR', apiKey: '' }),
      CORP_LLM_SECRET: FAKE_API_KEY,
    });
    expect(r.stderr).not.toContain('Missing environment variable');
    expect(r.stderr).toContain('Exit reason: max_loops');
    expect(api.requests.length - first).toBe(1);
    expect(`${r.stdout}${r.stderr}${ralphFiles(dir)}`).not.toContain(FAKE_API_KEY);
  });
});
