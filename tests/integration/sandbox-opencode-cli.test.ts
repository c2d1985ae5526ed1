// The real OpenCode (the pinned devDependency) run by `ralph --sandbox --backend opencode`
// against the fake Chat Completions API on 127.0.0.1, allowed by address (OpenCode names its
// provider in its own configuration): contained like every backend, its folders made for it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChatApi, type FakeChatApi } from '../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, opencodeOfflineEnv } from '../helpers/fake-api/opencode-offline-env.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralph, statusBlock } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';
import { agentCli } from '../helpers/agent-clis.js';
import { skipNote } from '../helpers/skip-note.js';

const OPENCODE = agentCli('opencode');
const unavailable = skipNote('the sandbox tests', bwrapUnavailable() ?? (existsSync(OPENCODE) ? undefined : 'OpenCode is not installed (npm run agent-clis)'));
const RALPHRC = `OPENCODE_CMD="${OPENCODE}"\nOPENCODE_MODEL=${FAKE_MODEL}\nALLOWED_TOOLS="Write,Read,Edit,Bash(echo *)"\n`;
const done = (text: string): { text: string } => ({ text: `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}` });

let api: FakeChatApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe.skipIf(unavailable !== undefined)(`ralph --sandbox --backend opencode${unavailable ? ` (skipped: ${unavailable})` : ''}`, { timeout: 300_000 }, () => {
  it('contains the real OpenCode: it writes in the project and reaches only the allowed API', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ ralphrc: RALPHRC });
    api = await startFakeChatApi([{ tool: 'write', args: { filePath: 'notes.txt', content: 'done\n' } }, done('Wrote notes.txt.'), done('Nothing left.')]);
    const env = world.env(opencodeOfflineEnv(world.home, api.baseURL));
    const port = new URL(api.baseURL).port;
    const r = await ralph(
      ['--sandbox', '--sandbox-allow-domain', `127.0.0.1:${port}`, '--backend', 'opencode', '--pause', '0', '--max-loops', '3'],
      dir,
      env,
      280_000,
    );
    expect(r.stderr).toContain('Sandbox on');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('done\n');
    expect(existsSync(join(world.home, '.local', 'share', 'opencode'))).toBe(true);
  });
});
