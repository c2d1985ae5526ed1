import { describe, expect, it } from 'vitest';
import { agentDeclaration } from '../../../src/backends/agents.js';
import { agentCliAbout, checkAgentCli, compareVersions } from '../../../src/backends/cli-version-check.js';
import { RalphError } from '../../../src/errors.js';
import type { ProcessRunner, RunResult } from '../../../src/ports.js';

function runnerAnswering(result: Partial<RunResult>): ProcessRunner {
  return { run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 5, ...result }) };
}

const codexCheck = (runner: ProcessRunner, command: string[] = ['codex']) =>
  checkAgentCli({
    runner,
    command,
    minVersion: '0.169.0',
    cwd: '/project',
    env: { PATH: '/usr/bin:/bin' },
    warn: () => undefined,
    agent: 'Codex CLI',
    commandKey: 'CODEX_CMD',
    installHint: 'Install it with `npm install -g @openai/codex`.',
    updateHint: 'Update it with `npm install -g @openai/codex@latest`.',
  });

describe('compareVersions', () => {
  it.each([
    ['2.1.197', '2.0.76', 1],
    ['2.0.76', '2.0.76', 0],
    ['2.0.9', '2.0.76', -1],
    ['3', '2.9.9', 1],
  ] as const)('%s vs %s', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });
});

describe('checkAgentCli', () => {
  it('names the agent, its command key and how to install or update it', async () => {
    const missing = (await codexCheck(runnerAnswering({ spawnError: 'ENOENT', exitCode: undefined })).catch((e: unknown) => e)) as RalphError;
    expect(missing).toBeInstanceOf(RalphError);
    expect(missing.exitCode).toBe(2);
    expect(missing.message).toBe("Codex CLI not found: 'codex' could not be started.");
    expect(missing.hint).toContain('npm install -g @openai/codex');

    const old = (await codexCheck(runnerAnswering({ stdout: 'codex-cli 0.98.0\n' })).catch((e: unknown) => e)) as RalphError;
    expect(old.message).toBe('Codex CLI 0.98.0 is older than 0.169.0, the oldest version Ralph supports.');
    expect(old.hint).toContain('@openai/codex@latest');

    await expect(codexCheck(runnerAnswering({}), [])).rejects.toThrow('CODEX_CMD is empty.');
  });

  it('returns the version a current CLI prints', async () => {
    expect(await codexCheck(runnerAnswering({ stdout: 'codex-cli 0.169.0\n' }))).toBe('0.169.0');
  });
});

describe('agentCliAbout: one "not found" message for every agent, from the registry', () => {
  it.each([
    ['claude', 'Claude Code', 'CLAUDE_CODE_CMD', 'npm install -g @anthropic-ai/claude-code', 'claude'],
    ['codex', 'Codex CLI', 'CODEX_CMD', 'npm install -g @openai/codex', 'codex login'],
    ['gemini', 'Gemini CLI', 'GEMINI_CMD', 'npm install -g @google/gemini-cli', 'gemini'],
    ['opencode', 'OpenCode', 'OPENCODE_CMD', 'npm install -g opencode-ai', 'opencode auth login'],
  ] as const)('%s: install line, login step, the .ralphrc line and the mock hint', async (name, agent, key, install, login) => {
    const about = agentCliAbout(agentDeclaration(name));
    expect(about.agent).toBe(agent);
    expect(about.commandKey).toBe(key);
    const pkg = install.replace('npm install -g ', '');
    expect(about.installHint).toBe(
      `Install ${agent} with \`${install}\` and ${about.installHint.match(/ and (.*?), or point/)?.[1] ?? ''}, or point ${key} in .ralphrc at it (for example ${key}="npx ${pkg}"). To try Ralph without an agent, use --backend mock or run \`ralph demo\`.`,
    );
    expect(about.installHint).toContain(`\`${login}`);
    expect(about.updateHint).toBe(`Update it with \`${install}@latest\`, then run ralph again.`);
    const missing = (await checkAgentCli({
      runner: runnerAnswering({ spawnError: 'ENOENT', exitCode: undefined }),
      command: ['x'],
      minVersion: '1.0.0',
      cwd: '/p',
      env: {},
      warn: () => undefined,
      ...about,
    }).catch((e: unknown) => e)) as RalphError;
    expect(missing.message).toBe(`${agent} not found: 'x' could not be started.`);
    expect(missing.hint).toBe(about.installHint);
  });
});
