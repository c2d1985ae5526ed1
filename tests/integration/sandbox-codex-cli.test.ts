// The real Codex CLI (the pinned devDependency) run by `ralph --sandbox --backend codex` against
// a fake Responses API on 127.0.0.1, allowed by address: the same seam contains every backend.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_TEST_MODEL, codexHome } from '../helpers/codex-home.js';
import { shellCall, startFakeResponsesApi, type FakeResponsesApi } from '../helpers/fake-api/openai-responses.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph, readJsonLines, statusBlock } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';
import { agentCli } from '../helpers/agent-clis.js';
import { skipNote } from '../helpers/skip-note.js';

const CODEX_BIN = agentCli('codex');
const unavailable = skipNote(
  'the sandbox tests',
  bwrapUnavailable() ?? (existsSync(CODEX_BIN) ? undefined : 'the Codex CLI is not installed (npm run agent-clis)'),
);
const RALPHRC = `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\nCODEX_REASONING_EFFORT=low\n`;
const complete = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', WORK_TYPE: 'IMPLEMENTATION' })}`;

let api: FakeResponsesApi;
beforeAll(async () => {
  api = await startFakeResponsesApi();
});
afterAll(async () => api?.close());

describe.skipIf(unavailable !== undefined)(`ralph --sandbox --backend codex${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('contains the real Codex CLI: its commands write in the project, not in $HOME', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ ralphrc: RALPHRC });
    const { PATH: _path, HOME: _home, ...codexEnv } = codexHome(world.home.replace(/\/home$/, ''), api.baseUrl);
    api.script([
      shellCall(`echo one > one.txt; echo escaped > ${join(world.home, 'escaped.txt')} || echo refused > refused.txt`),
      { text: complete('Wrote one.txt.') },
      { text: complete('Nothing left to do.') },
    ]);
    const port = new URL(api.baseUrl).port;
    const r = await ralph(
      ['--sandbox', '--sandbox-allow-domain', `127.0.0.1:${port}`, '--backend', 'codex', '--pause', '0', '--max-loops', '3'],
      dir,
      world.env(codexEnv),
      180_000,
    );
    expect(r.stderr).toContain('Sandbox on');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(dir, 'refused.txt'), 'utf8')).toBe('refused\n');
    expect(existsSync(join(world.home, 'escaped.txt'))).toBe(false);
    const refused = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'sandbox.refused');
    expect(refused.some((e) => String((e['data'] as { detail: string }).detail).includes('escaped.txt'))).toBe(true);
  });
});
