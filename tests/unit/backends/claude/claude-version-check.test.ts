import { describe, expect, it } from 'vitest';
import { checkClaudeCli } from '../../../../src/backends/claude/claude-version-check.js';
import { RalphError } from '../../../../src/errors.js';
import type { ProcessRunner, RunResult } from '../../../../src/ports.js';

function runnerAnswering(result: Partial<RunResult>, calls: string[][] = [], envs: unknown[] = []): ProcessRunner {
  return {
    run: async (file, args, options) => {
      calls.push([file, ...args]);
      envs.push(options.env);
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 5, ...result };
    },
  };
}

/** The filtered environment the agent gets, which the version check must run in too. */
const AGENT_ENV = { PATH: '/usr/bin:/bin', HOME: '/home/u' };

const check = (runner: ProcessRunner, warnings: string[] = [], command = ['claude']): Promise<string | undefined> =>
  checkClaudeCli(runner, command, '2.0.76', '/project', (m) => warnings.push(m), AGENT_ENV);

describe('checkClaudeCli', () => {
  it('returns the version of a supported CLI, asking the configured command in the agent environment', async () => {
    const calls: string[][] = [];
    const envs: unknown[] = [];
    expect(await check(runnerAnswering({ stdout: '2.1.197 (Claude Code)\n' }, calls, envs), [], ['npx', '@anthropic-ai/claude-code'])).toBe('2.1.197');
    expect(calls).toEqual([['npx', '@anthropic-ai/claude-code', '--version']]);
    expect(envs).toEqual([AGENT_ENV]);
  });

  it('refuses a missing, failing or too old CLI with exit code 2', async () => {
    for (const [result, message] of [
      [{ spawnError: 'ENOENT', exitCode: undefined }, /not found/],
      [{ exitCode: 127 }, /not found/],
      [{ exitCode: 1, stderr: 'broken install' }, /failed \(exit code 1\): broken install/],
      [{ stdout: '1.0.0 (Claude Code)' }, /1\.0\.0 is older than 2\.0\.76/],
    ] as const) {
      const error = await check(runnerAnswering(result)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RalphError);
      expect((error as RalphError).exitCode).toBe(2);
      expect((error as RalphError).message).toMatch(message);
    }
    await expect(check(runnerAnswering({}), [], [])).rejects.toThrow('CLAUDE_CODE_CMD is empty.');
  });

  it('only warns when the version cannot be read or the CLI does not answer', async () => {
    const warnings: string[] = [];
    expect(await check(runnerAnswering({ stdout: 'claude dev build' }), warnings)).toBeUndefined();
    expect(await check(runnerAnswering({ timedOut: true, exitCode: undefined }), warnings)).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('Could not read the Claude Code version'), expect.stringContaining('did not answer within 30 s')]);
  });
});
