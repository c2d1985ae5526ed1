import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// The Claude backend's call timeout against the fake claude: real processes, the whole tree ends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../src/agent-result.js';
import { claudeBackend } from '../../../src/backends/claude/claude-backend.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../../helpers/processes.js';
import { fakeClaude, resultJson, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait-for.js';

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);

/** sh that writes its PID to `file`, ignores SIGTERM (inherited through exec) and sleeps. */
const stubborn = (file: string): string => `trap "" TERM; echo $$ > "${file}"; exec sleep 300`;

afterEach(() => killTracked());

async function runWithTimeout(env: Record<string, string>, timeoutMs: number): Promise<AgentResult> {
  const dir = tempDir('claude-timeout-');
  const backend = claudeBackend({
    outputRedactor: () => NO_REDACTION,
    settings: { command: ['claude'], model: '', effort: '', extraArgs: [] },
    outputFormat: 'json',
    allowedTools: [],
    env,
    logger: createMemoryLogger(),
    killGraceMs: 500,
  });
  return backend.run(
    { loop: 1, cwd: dir, prompt: 'p', loopContext: 'c', timeoutMs, outputLogPath: join(dir, 'claude_output_loop1.log'), live: false },
    new AbortController().signal,
  );
}

describe('an agent call that outlives its timeout', () => {
  it('ends as a timeout and kills the whole process tree, grandchildren included', async () => {
    const fake = fakeClaude([{ sleep_ms: 60_000, grandchild: true }]);
    const run = await runWithTimeout(fake.env, 1500);
    expect(run.end).toBe('timeout');
    const grandchild = Number(readFileSync(join(fake.stateDir, 'grandchild-1.pid'), 'utf8'));
    const agent = fake.calls()[0]?.pid as number;
    expect(isRunning(agent)).toBe(false);
    await waitFor(() => !isRunning(grandchild));
  });

  it('ends a SIGTERM-ignoring agent and its setsid, SIGTERM-ignoring child', async () => {
    const fake = fakeClaude([], {
      default: {
        stdout: inProgress,
        sleep_ms: 120_000,
        ignore_term: true,
        shell: `setsid sh -c '${stubborn('$FAKE_CLAUDE_STATE/child.pid')}' >/dev/null 2>&1 &`,
      },
    });
    const run = await runWithTimeout(fake.env, 1500);
    expect(run.end).toBe('timeout');
    const agent = track(fake.calls()[0]?.pid as number);
    const child = await pidFromFile(join(fake.stateDir, 'child.pid'));
    expect(await survivors([agent, child])).toEqual([]);
  });
});
