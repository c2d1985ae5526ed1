// The real Claude Code CLI (the pinned one in tests/agent-clis) against the fake Messages API,
// logged in as a subscriber: the fake answers with the `anthropic-ratelimit-unified-*` headers
// of a weekly window past its warning threshold, the CLI turns them into its stream-json
// rate_limit_event, and Ralph parks until the window's reset (--park-at) or stops (--stop-at).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMessagesApi, type FakeMessagesApi, type MessagesTurn } from '../helpers/fake-api/anthropic-messages.js';
import { AGENT_CLI_BIN } from '../helpers/agent-clis.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../helpers/run-cli.js';
import { skipNote } from '../helpers/skip-note.js';
import { tempDir } from '../helpers/temp-dir.js';
import { claudeHome } from '../helpers/claude-home.js';

const CLAUDE = join(AGENT_CLI_BIN, 'claude');
const unavailable = skipNote('the subscription-window tests', existsSync(CLAUDE) ? undefined : 'the Claude Code CLI is not installed (npm run agent-clis)');
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The headers of an answer whose weekly window passed its 75% threshold, resetting at `reset` (epoch s). */
function weeklyWarning(reset: number): Record<string, string> {
  return {
    'anthropic-ratelimit-unified-status': 'allowed_warning',
    'anthropic-ratelimit-unified-representative-claim': 'seven_day',
    'anthropic-ratelimit-unified-reset': String(reset),
    'anthropic-ratelimit-unified-5h-status': 'allowed',
    'anthropic-ratelimit-unified-5h-utilization': '0.2',
    'anthropic-ratelimit-unified-5h-reset': String(reset + 3600),
    'anthropic-ratelimit-unified-7d-status': 'allowed_warning',
    'anthropic-ratelimit-unified-7d-utilization': '0.81',
    'anthropic-ratelimit-unified-7d-reset': String(reset),
    'anthropic-ratelimit-unified-7d-surpassed-threshold': '0.75',
  };
}

const working = (text: string): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;

async function subscriberEnv(turns: MessagesTurn[]): Promise<Record<string, string>> {
  api = await startFakeMessagesApi(turns);
  return cleanEnv({
    ...claudeHome('windows-claude-home-', api.url),
    // A subscriber's login: only then does the CLI read the subscription windows' headers.
    CLAUDE_CODE_OAUTH_TOKEN: 'fake-oauth-token-for-window-tests',
    CLAUDE_CODE_SUBSCRIPTION_TYPE: 'max',
  });
}

const RALPHRC = `CLAUDE_CODE_CMD="${CLAUDE}"\nALLOWED_TOOLS="Read"\n`;

describe.skipIf(unavailable !== undefined)(
  `subscription windows with the real Claude Code${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  { timeout: 240_000 },
  () => {
    it('--park-at warning: the first call warns of the weekly window, Ralph waits for its reset, then calls again', async () => {
      // The reset a few seconds after the answer: the wait is real, and the second call must come after it.
      let reset = 0;
      const headers = (): Record<string, string> => weeklyWarning((reset = Math.floor(Date.now() / 1000) + 5));
      const env = await subscriberEnv([{ text: working('First.'), headers }, { text: working('Second.') }]);
      const dir = ralphProject({ ralphrc: RALPHRC });
      const r = await ralph(['--park-at', 'warning', '--max-loops', '2', '--pause', '0'], dir, env, 180_000);
      expect(r.exitCode, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/Parked: the weekly window \(seven_day\) is 81% used \(--park-at warning\) — waiting/);
      expect(api?.served()).toBe(2);
      expect(r.stderr).toMatch(/Parked: .* — waiting \d+s \(until /);
      const calls = api?.requests.filter((q) => Array.isArray(q.body['tools']) && (q.body['tools'] as unknown[]).length > 0) ?? [];
      expect(calls).toHaveLength(2);
      // The second call came once the window had reset, not before.
      expect(calls[1]?.at).toBeGreaterThanOrEqual(reset * 1000);
      const status = readJson(join(dir, '.ralph', 'status.json'));
      expect(status).toMatchObject({ exit_reason: 'max_loops', waiting: null });
    });

    it('--stop-at warning:seven_day: ends with quota_reserved (exit 5), naming the window and its reset', async () => {
      const reset = Math.floor(Date.now() / 1000) + 3 * 86_400;
      const env = await subscriberEnv([{ text: working('First.'), headers: weeklyWarning(reset) }, { text: working('Second.') }]);
      const dir = ralphProject({ ralphrc: RALPHRC });
      const report = join(tempDir('windows-report-'), 'report.json');
      const r = await ralph(['--stop-at', 'warning:seven_day', '--max-loops', '3', '--pause', '0', '--report', report], dir, env, 180_000);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toContain('Exit reason: quota_reserved');
      expect(r.stderr).toMatch(/the weekly window \(seven_day\) is 81% used \(--stop-at warning:seven_day\); it resets at \S/);
      expect(api?.served()).toBe(1);
      expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({
        exit_reason: 'quota_reserved',
        exit_code: 5,
        quota_windows: expect.arrayContaining([expect.objectContaining({ window: 'seven_day', status: 'warning', used_percent: 81 })]),
      });
      const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
      expect(readJson(report)).toMatchObject({
        exit_reason: 'quota_reserved',
        exit_code: 5,
        quota_windows: [
          { window: 'five_hour', status: 'allowed', used_percent: 20, resets_at: iso(reset + 3600) },
          { window: 'seven_day', status: 'warning', used_percent: 81, resets_at: iso(reset) },
        ],
      });
    });
  },
);
