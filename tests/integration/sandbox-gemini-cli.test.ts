// The real Gemini CLI (the pinned devDependency) run by `ralph --sandbox --backend gemini`
// against the fake Gemini API on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL): contained like every backend.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiHome, startFakeGeminiApi, type FakeGeminiApi, type GeminiTurn } from '../helpers/fake-api/gemini.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph, statusBlock } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';
import { agentCli } from '../helpers/agent-clis.js';
import { skipNote } from '../helpers/skip-note.js';

const GEMINI = agentCli('gemini');
const unavailable = skipNote(
  'the sandbox tests',
  bwrapUnavailable() ?? (existsSync(GEMINI) ? undefined : 'the Gemini CLI is not installed (npm run agent-clis)'),
);
const RALPHRC = `GEMINI_CMD="${GEMINI}"\nGEMINI_MODEL=gemini-2.5-flash\n`;
const done = (text: string): GeminiTurn => ({ text: `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}` });

let api: FakeGeminiApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe.skipIf(unavailable !== undefined)(`ralph --sandbox --backend gemini${unavailable ? ` (skipped: ${unavailable})` : ''}`, { timeout: 240_000 }, () => {
  it('contains the real Gemini CLI: it works in the project through the proxy to its API', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ ralphrc: RALPHRC });
    api = await startFakeGeminiApi([
      { calls: [{ name: 'write_file', args: { file_path: 'a.txt', content: 'first\n' } }] },
      done('Wrote a.txt.'),
      done('Nothing left.'),
    ]);
    const env = world.env(geminiHome(world.home, api));
    const r = await ralph(['--sandbox', '--backend', 'gemini', '--pause', '0', '--max-loops', '3'], dir, env, 200_000);
    expect(r.stderr).toContain('Sandbox on');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('first\n');
  });
});
