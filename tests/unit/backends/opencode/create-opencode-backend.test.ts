import { NO_REDACTION } from '../../../../src/core/secret-redactor.js';
import { describe, expect, it } from 'vitest';
import { checkOpencodeBeforeLoop, createOpencodeBackend } from '../../../../src/backends/opencode/create-opencode-backend.js';
import type { BackendContext } from '../../../../src/backends/context.js';
import { loadConfig } from '../../../../src/config/load-config.js';
import { RalphError } from '../../../../src/errors.js';
import type { RunResult } from '../../../../src/ports.js';
import { ralphPaths } from '../../../../src/state/paths.js';
import { createMemoryLogger } from '../../../../src/ui/logger.js';

function context(answer: Partial<RunResult>, env: NodeJS.ProcessEnv = {}): BackendContext & { calls: string[][] } {
  const calls: string[][] = [];
  const config = loadConfig({ env: {}, flags: { backend: 'opencode' } }).config;
  return {
    calls,
    config: { ...config, opencodeCommand: ['npx', 'opencode-ai'], opencodeModel: 'openai/gpt-5' },
    paths: ralphPaths('/project'),
    runner: {
      run: async (file, args) => {
        calls.push([file, ...args]);
        return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 5, ...answer };
      },
    },
    clock: { now: () => 0 } as BackendContext['clock'],
    logger: createMemoryLogger(),
    env,
    outputRedactor: () => NO_REDACTION,
  };
}

describe('the OpenCode backend entry', () => {
  it('checks the configured command for the version it supports', async () => {
    const ctx = context({ stdout: '1.18.33\n' });
    await checkOpencodeBeforeLoop(ctx);
    expect(ctx.calls).toEqual([['npx', 'opencode-ai', '--version']]);
  });

  it('names the install command when OpenCode is missing, and the update when it is too old', async () => {
    const missing = checkOpencodeBeforeLoop(context({ exitCode: 127 }));
    await expect(missing).rejects.toThrow(RalphError);
    await expect(missing).rejects.toMatchObject({ hint: expect.stringContaining('npm install -g opencode-ai') });
    await expect(checkOpencodeBeforeLoop(context({ stdout: '0.9.1\n' }))).rejects.toThrow('OpenCode 0.9.1 is older than 1.18.33');
  });

  it('is OpenCode, and describes its call without the message', async () => {
    const backend = createOpencodeBackend(context({}));
    expect(backend.name).toBe('opencode');
    expect(backend.displayName).toBe('OpenCode');
    expect(backend.describe({ loop: 4, cwd: '/project', prompt: 'p', loopContext: '', timeoutMs: 1, outputLogPath: '/x.log', live: false })).toBe(
      'npx opencode-ai run --format json --model openai/gpt-5 --title "Ralph loop 4" <message:1 chars on stdin>',
    );
  });
});
