// The real Codex CLI (the pinned one in tests/agent-clis) against the fake Responses API: the fake
// answers with the `x-codex-primary-*` / `x-codex-secondary-*` headers of a 5-hour window past
// 80 %. Codex 0.169.0 prints no rate limits on stdout in `exec --json` mode; it writes them to
// the thread's session file under CODEX_HOME, where Ralph reads them, and parks until the
// window's reset (--park-at 80%) or stops (--stop-at 80%).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCli } from '../helpers/agent-clis.js';
import { CODEX_TEST_MODEL, codexHome } from '../helpers/codex-home.js';
import { startFakeResponsesApi, type FakeResponsesApi } from '../helpers/fake-api/openai-responses.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const CODEX_BIN = agentCli('codex');
const RALPHRC = `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\nCODEX_REASONING_EFFORT=low\n`;
const working = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false', WORK_TYPE: 'IMPLEMENTATION' })}`;

let api: FakeResponsesApi;
beforeAll(async () => {
  api = await startFakeResponsesApi();
});
afterAll(async () => api.close());

function codexEnv(): Record<string, string> {
  const { PATH: _path, ...env } = codexHome(tempDir('windows-codex-home-'), api.baseUrl);
  return cleanEnv(env);
}

/** The headers of an answer whose 5-hour window is 85 % used, resetting at `reset` (epoch s); the weekly one at 30 %. */
function fiveHourAt85(reset: number): Record<string, string> {
  return {
    'x-codex-primary-used-percent': '85',
    'x-codex-primary-window-minutes': '300',
    'x-codex-primary-reset-at': String(reset),
    'x-codex-secondary-used-percent': '30',
    'x-codex-secondary-window-minutes': '10080',
    'x-codex-secondary-reset-at': String(reset + 3 * 86_400),
  };
}

describe('subscription windows with the real Codex CLI', { timeout: 240_000 }, () => {
  it('--park-at 80%: the first call reports the 5-hour window at 85%, Ralph waits for its reset, then calls again', async () => {
    // The reset a few seconds after the answer: the wait is real, and the second call must come after it.
    let reset = 0;
    const headers = (): Record<string, string> => fiveHourAt85((reset = Math.floor(Date.now() / 1000) + 5));
    const first = api.requests.length;
    api.script([{ text: working('First.'), headers }, { text: working('Second.') }]);
    const dir = ralphProject({ ralphrc: RALPHRC });
    const r = await ralph(['--backend', 'codex', '--park-at', '80%', '--max-loops', '2', '--pause', '0'], dir, codexEnv(), 180_000);
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/Parked: the 5-hour window \(five_hour\) is 85% used \(--park-at 80%\) — waiting \d+s \(until /);
    const requests = api.requests.slice(first);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_loops', waiting: null });
  });

  it('--stop-at 80%: ends with quota_reserved (exit 5), naming the window and its reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 2 * 3600;
    const first = api.requests.length;
    api.script([{ text: working('First.'), headers: fiveHourAt85(reset) }, { text: working('Second.') }]);
    const dir = ralphProject({ ralphrc: RALPHRC });
    const report = join(tempDir('windows-codex-report-'), 'report.json');
    const r = await ralph(['--backend', 'codex', '--stop-at', '80%', '--max-loops', '3', '--pause', '0', '--report', report], dir, codexEnv(), 180_000);
    expect(r.exitCode, r.stderr).toBe(5);
    expect(r.stderr).toContain('Exit reason: quota_reserved');
    expect(r.stderr).toMatch(/the 5-hour window \(five_hour\) is 85% used \(--stop-at 80%\); it resets at \S/);
    expect(api.requests.length - first).toBe(1);
    const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    expect(readJson(report)).toMatchObject({
      exit_reason: 'quota_reserved',
      exit_code: 5,
      quota_windows: [
        { window: 'five_hour', status: 'allowed', used_percent: 85, resets_at: iso(reset) },
        { window: 'seven_day', status: 'allowed', used_percent: 30, resets_at: iso(reset + 3 * 86_400) },
      ],
    });
  });
});
