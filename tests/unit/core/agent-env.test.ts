import { describe, expect, it } from 'vitest';
import { claudeCredentials } from '../../../src/backends/claude/claude-credentials.js';
import { buildAgentEnv as buildWithOwn } from '../../../src/core/agent-env.js';
import { PLANTED_SECRETS, plantedIn } from '../../helpers/planted-secrets.js';

/** The agent's environment for Claude Code, whose own variables its backend declares. */
function buildAgentEnv(env: Record<string, string>, passThrough: readonly string[] = [], own = claudeCredentials(env)): ReturnType<typeof buildWithOwn> {
  return buildWithOwn(env, passThrough, own);
}

const base = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  USER: 'u',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm-256color',
  TMPDIR: '/tmp',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
  NO_PROXY: 'localhost',
  GIT_AUTHOR_NAME: 'U Ser',
  JAVA_HOME: '/opt/jdk',
  MY_PROJECT_MODE: 'dev',
  ANTHROPIC_API_KEY: 'sk-ant-api03-ownkey000000000000000000',
  ANTHROPIC_BASE_URL: 'https://api.anthropic.com',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-owntoken00000000000000',
  CLAUDE_CONFIG_DIR: '/home/u/.claude',
};

describe('buildAgentEnv', () => {
  it('passes what the agent needs and withholds every planted credential', () => {
    const result = buildAgentEnv({ ...base, ...PLANTED_SECRETS });
    for (const [name, value] of Object.entries(base)) expect(result.env[name], name).toBe(value);
    expect(plantedIn(JSON.stringify(result.env))).toEqual([]);
    expect(result.withheld).toContain('GITHUB_TOKEN');
    expect(result.withheld).toContain('SSH_AUTH_SOCK');
    expect(result.withheld).toContain('DEPLOY_HOOK');
    expect(result.stripped).toEqual(['GOFLAGS', 'GRADLE_OPTS', 'HTTPS_PROXY', 'JAVA_TOOL_OPTIONS', 'MAVEN_OPTS', 'MONGODB_URI']);
    expect(result.env['HTTPS_PROXY']).toBe('http://proxy.corp:8080');
    expect(result.env['MAVEN_OPTS']).toBe('-Xmx1g -Dfile.encoding=UTF-8');
  });

  it('passes a withheld variable through when the user names it, verbatim', () => {
    const result = buildAgentEnv({ ...base, ...PLANTED_SECRETS }, ['NPM_TOKEN', 'HTTPS_PROXY']);
    expect(result.env['NPM_TOKEN']).toBe(PLANTED_SECRETS['NPM_TOKEN']);
    expect(result.env['HTTPS_PROXY']).toBe(PLANTED_SECRETS['HTTPS_PROXY']);
    expect(result.withheld).not.toContain('NPM_TOKEN');
    expect(result.stripped).not.toContain('HTTPS_PROXY');
    expect(result.env['GITHUB_TOKEN']).toBeUndefined();
  });

  it('names pass-through variables that are not set', () => {
    expect(buildAgentEnv(base, ['NPM_TOKEN', 'ALSO_MISSING']).missing).toEqual(['ALSO_MISSING', 'NPM_TOKEN']);
  });

  it('gives the AWS credentials to an agent that runs on Bedrock, and only then', () => {
    const aws = { AWS_ACCESS_KEY_ID: 'AKIAABCDEFGHIJKLMNOP', AWS_SECRET_ACCESS_KEY: 'x/y+z', AWS_REGION: 'us-east-1' };
    expect(buildAgentEnv({ ...base, ...aws }).env['AWS_SECRET_ACCESS_KEY']).toBeUndefined();
    const bedrock = buildAgentEnv({ ...base, ...aws, CLAUDE_CODE_USE_BEDROCK: '1' });
    expect(bedrock.env['AWS_SECRET_ACCESS_KEY']).toBe('x/y+z');
    expect(bedrock.env['AWS_ACCESS_KEY_ID']).toBe('AKIAABCDEFGHIJKLMNOP');
    expect(buildAgentEnv({ ...base, ...aws, CLAUDE_CODE_USE_BEDROCK: '0' }).env['AWS_SECRET_ACCESS_KEY']).toBeUndefined();
  });

  it("gives another agent its own credentials and not Claude's", () => {
    const gemini = { GEMINI_API_KEY: 'AIzaSyOwnKey000000000000000000000000000', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' };
    const result = buildAgentEnv({ ...base, ...gemini }, [], { prefixes: ['GEMINI_', 'GOOGLE_GEMINI_'], names: [] });
    expect(result.env['GEMINI_API_KEY']).toBe(gemini.GEMINI_API_KEY);
    expect(result.env['GOOGLE_GEMINI_BASE_URL']).toBe(gemini.GOOGLE_GEMINI_BASE_URL);
    expect(result.env['ANTHROPIC_API_KEY']).toBeUndefined();
    expect(result.withheld).toContain('ANTHROPIC_API_KEY');
    expect(buildAgentEnv({ ...base, ...gemini }).env['GEMINI_API_KEY']).toBeUndefined();
  });

  it('says nothing was withheld from a clean environment', () => {
    const result = buildAgentEnv(base);
    expect(result.withheld).toEqual([]);
    expect(result.stripped).toEqual([]);
  });
});
