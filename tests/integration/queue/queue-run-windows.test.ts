// `ralph queue run --park-at / --stop-at / --max-tokens`: the flags reach every item's loop. The
// mock agent replays Codex's JSON output with a 5-hour window at 85 %; the item a stop ends is
// recorded with its exit code and reason.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { addTasks, doneOutput, mockFlags, queueCli, queueItems, queueProject } from './queue-run-helpers.js';

/** One `codex exec --json` call reporting the 5-hour window at 85 %, resetting in two hours, and 1,000 tokens. */
function codexCallAt85(): string {
  const resetsAt = Math.floor(Date.now() / 1000) + 2 * 3600;
  const events = [
    { type: 'thread.started', thread_id: 'thread-1' },
    { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 85, window_minutes: 300, resets_at: resetsAt } } },
    { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: doneOutput(false) } },
    { type: 'turn.completed', usage: { input_tokens: 900, cached_input_tokens: 0, output_tokens: 100 } },
  ];
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}

function script(): string {
  const file = join(tempDir('queue-windows-'), 'mock.json');
  const responses = Array.from({ length: 4 }, () => ({ trigger_pattern: 'alpha', output: codexCallAt85(), replay: 'codex', files: { 'alpha.txt': 'a\n' } }));
  writeFileSync(file, JSON.stringify({ responses }, null, 2));
  return file;
}

async function runOne(flags: readonly string[]): Promise<{ stderr: string; result: unknown; state: string | undefined }> {
  const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
  await addTasks(project, ['>>alpha']);
  const run = await queueCli(['run', ...flags, ...mockFlags(script(), 3)], project);
  const item = queueItems(project)[0];
  return { stderr: String(run.stderr), result: item?.result, state: item?.state };
}

describe('ralph queue run with subscription windows and a token budget', () => {
  it('--stop-at 80%: the item loop stops (exit 5) and the item is recorded with quota_reserved', async () => {
    const { result, state, stderr } = await runOne(['--stop-at', '80%']);
    expect(state, stderr).toBe('failed');
    expect(result).toMatchObject({ exit_code: 5, exit_reason: 'quota_reserved', iterations: 1, error: 'the loop ended with exit code 5 (quota_reserved)' });
  });

  it('--park-at 80% reaches the item loop: a reset after its --max-runtime ends it at once', async () => {
    const { result, stderr } = await runOne(['--park-at', '80%', '--max-runtime', '60']);
    expect(result, stderr).toMatchObject({ exit_code: 7, exit_reason: 'max_runtime', iterations: 1 });
  });

  it('--max-tokens 1500: the item loop ends after the call that passed it (exit 7, max_tokens)', async () => {
    const { result, stderr } = await runOne(['--max-tokens', '1500']);
    expect(result, stderr).toMatchObject({ exit_code: 7, exit_reason: 'max_tokens', iterations: 2 });
  });
});
