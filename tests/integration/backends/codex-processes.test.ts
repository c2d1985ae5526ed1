import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// The real Codex CLI 0.169.0 running a command that outlives the call: a timeout, and Ctrl+C on the
// built ralph, end Codex and everything it started, a process that left the group included.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codexBackend } from '../../../src/backends/codex/codex-backend.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { CODEX_TEST_MODEL, codexHome } from '../../helpers/codex-home.js';
import { startFakeResponsesApi, type FakeResponsesApi, type ResponsesReply } from '../../helpers/fake-api/openai-responses.js';
import { killTracked, pidFromFile, survivors } from '../../helpers/processes.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { ROOT, cleanEnv } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { agentCli } from '../../helpers/agent-clis.js';

const CODEX_BIN = agentCli('codex');

/** A command that records its shell and a child in a session of its own, then waits (Codex waits up to 30 s on it). */
const lingering: ResponsesReply = {
  call: 'exec_command',
  arguments: { cmd: 'echo $$ > sh.pid; (setsid sleep 300 & echo $! > bg.pid); sleep 300', login: false, yield_time_ms: 30_000 },
};

let api: FakeResponsesApi;
beforeAll(async () => {
  api = await startFakeResponsesApi();
});
afterAll(async () => api.close());
afterEach(() => killTracked());

describe('Codex processes end with the call', () => {
  it('a call past its time limit is a timeout, and Codex, its command and that command’s child are gone', async () => {
    const dir = tempDir('codex-timeout-');
    api.script([lingering], { hang: true });
    const backend = codexBackend({
      outputRedactor: () => NO_REDACTION,
      settings: { command: [CODEX_BIN], model: CODEX_TEST_MODEL, effort: '', extraArgs: [] },
      env: codexHome(tempDir('codex-home-'), api.baseUrl),
      logger: createMemoryLogger(),
      killGraceMs: 500,
    });
    const pids: Promise<number[]> = Promise.all([pidFromFile(join(dir, 'sh.pid')), pidFromFile(join(dir, 'bg.pid'))]);
    const result = await backend.run(
      { loop: 1, cwd: dir, prompt: 'Wait.', loopContext: 'Loop #1.', timeoutMs: 4000, outputLogPath: join(dir, 'codex_output_loop1.log'), live: false },
      new AbortController().signal,
    );
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(await survivors(await pids)).toEqual([]);
  });

  it('Ctrl+C on ralph: exit 130, and nothing Codex started is left running', async () => {
    const dir = ralphProject({ ralphrc: `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\n` });
    api.script([lingering], { hang: true });
    const { PATH: _path, ...home } = codexHome(tempDir('codex-home-'), api.baseUrl);
    const run = execa(process.execPath, [join(ROOT, 'bin', 'ralph.js'), '--backend', 'codex', '--pause', '0'], {
      cwd: dir,
      env: cleanEnv(home),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 200_000,
    });
    const pids = await Promise.all([pidFromFile(join(dir, 'sh.pid'), 100_000), pidFromFile(join(dir, 'bg.pid'), 100_000)]);
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(await survivors(pids)).toEqual([]);
  });
});
