import { describe, expect, it } from 'vitest';
import { buildSandboxPolicy, describeSandboxPolicy, hostOfBaseUrl, SECRET_LOCATIONS, type SandboxPolicyInput } from '../../../src/core/sandbox-policy.js';

const CLAUDE = {
  configDirs: [
    { path: '~/.claude', variable: 'CLAUDE_CONFIG_DIR' },
    { path: '~/.claude.json', file: true as const },
  ],
  hosts: ['api.anthropic.com'],
  baseUrlVariables: ['ANTHROPIC_BASE_URL'],
};

function input(over: Partial<SandboxPolicyInput> = {}): SandboxPolicyInput {
  return { project: '/work/app', home: '/home/u', tmpDir: '/tmp', env: {}, agent: CLAUDE, allowDomains: [], allowWrite: [], ...over };
}

describe('buildSandboxPolicy', () => {
  it('writes only in the project, the temp dir and the agent folders; reads no credentials; reaches only the API', () => {
    const policy = buildSandboxPolicy(input());
    expect(policy.allowWrite).toEqual(['/work/app', '/tmp', '/home/u/.claude', '/home/u/.claude.json']);
    expect(policy.denyRead).toContain('/home/u/.ssh');
    expect(policy.denyRead).toContain('/home/u/.aws');
    expect(policy.denyRead).toContain('/home/u/.config/gh');
    expect(policy.denyRead).toHaveLength(SECRET_LOCATIONS.length);
    expect(policy.allowedDomains).toEqual(['api.anthropic.com']);
    expect(policy.localApi).toBe(false);
    expect(policy.agentDirs).toEqual(['/home/u/.claude']);
  });

  it("follows the agent's config-dir variable and adds the user's paths (home and project relative)", () => {
    const policy = buildSandboxPolicy(input({ env: { CLAUDE_CONFIG_DIR: '/srv/claude' }, allowWrite: ['~/.cache/pip', 'out', '/opt/x', 'out'] }));
    expect(policy.allowWrite).toEqual(['/work/app', '/tmp', '/srv/claude', '/home/u/.claude.json', '/home/u/.cache/pip', '/work/app/out', '/opt/x']);
  });

  it('ignores a relative config-dir variable (it would name a folder wherever the agent runs)', () => {
    expect(buildSandboxPolicy(input({ env: { CLAUDE_CONFIG_DIR: 'rel' } })).allowWrite).toContain('/home/u/.claude');
  });

  it('allows the host of a base URL; one on this machine by address and port, through the proxy', () => {
    const remote = buildSandboxPolicy(input({ env: { ANTHROPIC_BASE_URL: 'https://gateway.corp.example/v1' }, allowDomains: ['registry.npmjs.org'] }));
    expect(remote.allowedDomains).toEqual(['api.anthropic.com', 'gateway.corp.example', 'registry.npmjs.org']);
    expect(remote.localApi).toBe(false);
    const local = buildSandboxPolicy(input({ env: { ANTHROPIC_BASE_URL: 'http://localhost:4010' } }));
    expect(local.allowedDomains).toEqual(['api.anthropic.com', 'localhost:4010', '127.0.0.1:4010']);
    expect(local.localApi).toBe(true);
  });

  it('reaches a loopback address the user allows through the proxy too', () => {
    expect(buildSandboxPolicy(input({ allowDomains: ['127.0.0.1:9000'] })).localApi).toBe(true);
    expect(buildSandboxPolicy(input({ allowDomains: ['[::1]:9000'] })).localApi).toBe(true);
    expect(buildSandboxPolicy(input({ allowDomains: ['registry.npmjs.org', '*.example.com'] })).localApi).toBe(false);
  });

  it.each([
    ['http://127.0.0.1:8080/v1', { patterns: ['127.0.0.1:8080'], local: true }],
    ['http://localhost/', { patterns: ['localhost:80', '127.0.0.1:80'], local: true }],
    ['http://[::1]:9000', { patterns: ['[::1]:9000'], local: true }],
    ['https://API.example.com', { patterns: ['api.example.com'], local: false }],
    ['not a url', undefined],
    ['file:///etc/passwd', undefined],
  ])('hostOfBaseUrl(%j)', (raw, expected) => {
    expect(hostOfBaseUrl(raw)).toEqual(expected);
  });

  it('is shown with the home folder as ~', () => {
    const lines = describeSandboxPolicy(buildSandboxPolicy(input({ agent: { configDirs: [], hosts: [], baseUrlVariables: [] } })), '/home/u');
    expect(lines[0]).toBe('  may write:     /work/app, /tmp');
    expect(lines[1]).toBe('  read-only:     nothing');
    expect(lines[2]).toMatch(/^ {2}cannot read: {3}~\/\.ssh, ~\/\.aws, /);
    expect(lines[3]).toBe("  may connect:   nothing (through the sandbox's proxy only)");
  });

  const AGENT = {
    configDirs: [
      { path: '~/.claude', variable: 'CLAUDE_CONFIG_DIR', readOnly: ['settings.json', 'hooks', '.credentials.json'], credentials: ['.credentials.json'] },
    ],
    hosts: [],
    baseUrlVariables: [],
  };
  const OTHER = {
    configDirs: [{ path: '~/.codex', variable: 'CODEX_HOME', readOnly: ['config.toml', 'auth.json'], credentials: ['auth.json'] }],
    hosts: [],
    baseUrlVariables: [],
  };

  it("keeps the agent's settings and credentials read-only inside its writable folder, where its variable puts them", () => {
    expect(buildSandboxPolicy(input({ agent: AGENT })).denyWrite).toEqual([
      '/home/u/.claude/settings.json',
      '/home/u/.claude/hooks',
      '/home/u/.claude/.credentials.json',
    ]);
    const moved = buildSandboxPolicy(input({ agent: AGENT, env: { CLAUDE_CONFIG_DIR: '/srv/claude' } }));
    expect(moved.allowWrite).toContain('/srv/claude');
    expect(moved.denyWrite).toContain('/srv/claude/settings.json');
    // Its own credentials stay readable: it needs them.
    expect(moved.denyRead).not.toContain('/srv/claude/.credentials.json');
  });

  it("hides the other agents' credentials, wherever their variables put them, and adds Ralph's own files read-only", () => {
    const policy = buildSandboxPolicy(input({ agent: AGENT, otherAgents: [OTHER], env: { CODEX_HOME: '/srv/codex' }, ralphFiles: ['/work/app/.ralphrc'] }));
    expect(policy.denyRead).toContain('/srv/codex/auth.json');
    expect(policy.denyRead).not.toContain('/srv/codex/config.toml');
    expect(policy.denyWrite).toContain('/work/app/.ralphrc');
    const lines = describeSandboxPolicy(policy, '/home/u', '/work/app');
    expect(lines[1]).toBe(
      "  read-only:     ~/.claude/settings.json, ~/.claude/hooks, ~/.claude/.credentials.json, Ralph's own files (.ralphrc, the prompt, .ralph/ but for fix_plan.md, AGENT.md and specs/)",
    );
  });
});
