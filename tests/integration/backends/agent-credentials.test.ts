import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// Every backend's agent CLI — its version check and its calls — runs in an environment built
// from the backend's own declaration of its credentials: a command that dumps its environment
// stands in for each CLI (the spawn is the backend's real one).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../src/agent-result.js';
import type { BackendContext } from '../../../src/backends/context.js';
import { backendEntry, type BackendName } from '../../../src/backends/registry.js';
import type { RalphConfig } from '../../../src/config/keys.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { systemClock } from '../../../src/infra/system-clock.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { adversarialEnv, adversarialLeaks } from '../../helpers/adversarial-env.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A stand-in agent CLI: writes its environment to <dir>/<version|call>.json; answers --version, fails a call with `message`. */
const DUMP_SCRIPT = `
const fs = require('node:fs');
const [dir, message, ...args] = process.argv.slice(2);
const version = args.includes('--version');
fs.writeFileSync(dir + (version ? '/version.json' : '/call.json'), JSON.stringify(process.env));
if (version) { process.stdout.write('99.0.0\\n'); process.exit(0); }
process.stderr.write(message + '\\n');
process.exit(1);
`;

const COMMAND_FIELD: Record<Exclude<BackendName, 'mock'>, 'claudeCommand' | 'codexCommand' | 'geminiCommand' | 'opencodeCommand'> = {
  claude: 'claudeCommand',
  codex: 'codexCommand',
  gemini: 'geminiCommand',
  opencode: 'opencodeCommand',
};

/** The keys of every agent (with Claude on Bedrock): what one user may well have exported all at once. */
const AGENT_KEYS = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-AnthropicKeyOfTheUser0000',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-ClaudeOauthOfTheUser000',
  AWS_ACCESS_KEY_ID: 'AKIAUSERBEDROCK00001',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-of-the-user-0001',
  OPENAI_API_KEY: 'sk-proj-OpenaiKeyOfTheUser00000000',
  GEMINI_API_KEY: 'AIzaSyGeminiKeyOfTheUser0000000000000000',
  OPENROUTER_API_KEY: 'sk-or-v1-OpenrouterKeyOfTheUser000000',
};

interface Run {
  version: Record<string, string>;
  call: Record<string, string>;
  result: AgentResult;
  log: string;
}

async function runBackend(
  backend: Exclude<BackendName, 'mock'>,
  env: Record<string, string>,
  configure: (c: RalphConfig) => void = () => undefined,
  message = 'failed',
): Promise<Run> {
  const dir = tempDir(`agent-credentials-${backend}-`);
  const script = join(dir, 'dump.cjs');
  writeFileSync(script, DUMP_SCRIPT);
  const config = loadConfig({ env: {}, flags: { backend } }).config;
  config[COMMAND_FIELD[backend]] = [process.execPath, script, dir, message];
  configure(config);
  const logger = createMemoryLogger();
  const ctx: BackendContext = {
    config,
    paths: ralphPaths(dir),
    runner: createProcessRunner(),
    clock: systemClock,
    logger,
    env,
    outputRedactor: () => NO_REDACTION,
  };
  const entry = backendEntry(backend);
  await entry.preflight?.(ctx);
  const agent = await entry.create(ctx);
  const result = await agent.run(
    { loop: 1, cwd: dir, prompt: 'hello', loopContext: '', timeoutMs: 30_000, outputLogPath: join(dir, 'call.log'), live: false },
    new AbortController().signal,
  );
  const read = (name: string): Record<string, string> => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, string>;
  return { version: read('version.json'), call: read('call.json'), result, log: JSON.stringify(logger) };
}

const base = (): Record<string, string> => ({
  ...adversarialEnv(),
  ...AGENT_KEYS,
  CLAUDE_CODE_USE_BEDROCK: '1',
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: tempDir('agent-home-'),
});

/** Which of the agents' keys an environment holds. */
const keysIn = (env: Record<string, string>): string[] => Object.keys(AGENT_KEYS).filter((name) => env[name] !== undefined);

describe("each agent gets its own credentials, in its version check as in its calls, and nothing of another agent's", () => {
  it.each([
    ['claude', ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']],
    ['codex', ['OPENAI_API_KEY']],
    ['gemini', ['GEMINI_API_KEY']],
    ['opencode', []],
  ] as const)('%s', async (backend, expected) => {
    const run = await runBackend(backend, base());
    expect(keysIn(run.call)).toEqual(expected);
    expect(keysIn(run.version)).toEqual(expected);
    // None of the attacker's list, in the version check either.
    expect(adversarialLeaks(JSON.stringify(run.version))).toEqual([]);
    expect(adversarialLeaks(JSON.stringify(run.call))).toEqual([]);
    expect(run.version['PATH']).toBe(process.env['PATH'] ?? '/usr/bin:/bin');
  });

  it('gives OpenCode the key of the provider of its model, and only that one', async () => {
    const anthropic = await runBackend('opencode', base(), (c) => (c.opencodeModel = 'anthropic/claude-sonnet-4-5'));
    expect(keysIn(anthropic.call)).toEqual(['ANTHROPIC_API_KEY']);
    const openrouter = await runBackend('opencode', base(), (c) => (c.opencodeExtraArgs = ['--model', 'openrouter/some/model']));
    expect(keysIn(openrouter.call)).toEqual(['OPENROUTER_API_KEY']);
  });

  it('gives OpenCode the variables its user configuration names with {env:NAME}', async () => {
    const env = base();
    env['OPENCODE_CONFIG_CONTENT'] = JSON.stringify({ provider: { corp: { options: { apiKey: '{env:CORP_LLM_KEY}' } } } });
    env['CORP_LLM_KEY'] = 'corp-llm-key-of-the-user-0001';
    const run = await runBackend('opencode', env);
    expect(run.call['CORP_LLM_KEY']).toBe('corp-llm-key-of-the-user-0001');
    expect(keysIn(run.call)).toEqual([]);
  });

  it('gives Gemini CLI the variables its user settings name', async () => {
    const env = base();
    env['GEMINI_CLI_HOME'] = tempDir('gemini-home-');
    env['MCP_SERVER_TOKEN'] = 'mcp-token-of-the-user-0001';
    const settings = join(env['GEMINI_CLI_HOME'], '.gemini');
    mkdirSync(settings, { recursive: true });
    writeFileSync(join(settings, 'settings.json'), JSON.stringify({ mcpServers: { corp: { command: 'corp-mcp', env: { TOKEN: '$MCP_SERVER_TOKEN' } } } }));
    const run = await runBackend('gemini', env);
    expect(run.call['MCP_SERVER_TOKEN']).toBe('mcp-token-of-the-user-0001');
  });

  it('names the variables it withheld, and --agent-env, when an agent is refused its credentials', async () => {
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tempDir('agent-home-'), CORP_GATEWAY_TOKEN: 'corp-gateway-token-0001' };
    const run = await runBackend('codex', env, () => undefined, 'Error: unexpected status 401 Unauthorized: Missing bearer or basic authentication in header');
    expect(run.result.outcome.kind).toBe('unrecoverable');
    const advice = run.result.outcome.kind === 'unrecoverable' ? run.result.outcome.advice : '';
    expect(advice).toContain('codex login');
    expect(advice).toContain('Ralph withheld CORP_GATEWAY_TOKEN from the Codex CLI environment');
    expect(advice).toContain('--agent-env NAME');
  });
});
