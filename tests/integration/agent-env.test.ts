// A real loop against tests/fixtures/bin/claude, which dumps the environment it was given.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANTED_SECRETS, PLANTED_VALUES, plantedIn } from '../helpers/planted-secrets.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, resultJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const done = resultJson(`Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);

function parseEnvDump(text: string): Map<string, string> {
  const env = new Map<string, string>();
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

describe('the agent environment', () => {
  it('withholds every planted credential from the agent process, says which by name, and passes what it needs', async () => {
    const dir = ralphProject();
    const dump = join(tempDir('agent-env-'), 'env.txt');
    const fake = fakeClaude([], {
      default: { stdout: done, shell: `node -e 'process.stdout.write(Object.entries(process.env).map(([k,v])=>k+"="+v).join("\\0"))' > '${dump}'` },
    });
    const ownKey = 'sk-ant-api03-OWNKEYofTheAgent000000000';
    const env = {
      ...fake.env,
      ...PLANTED_SECRETS,
      ANTHROPIC_API_KEY: ownKey,
      CLAUDE_CODE_OAUTH_TOKEN: 'oauth-OWN-token-1234',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
      TERM: 'xterm',
      USER: 'someone',
    };
    expect(Object.keys(PLANTED_SECRETS).length).toBeGreaterThanOrEqual(40);

    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, env);
    const text = readFileSync(dump, 'utf8');
    const agent = parseEnvDump(text);

    expect(plantedIn(text)).toEqual([]);
    for (const name of Object.keys(PLANTED_SECRETS)) {
      if (agent.has(name)) expect(plantedIn(agent.get(name) ?? ''), name).toEqual([]);
    }
    expect(agent.get('ANTHROPIC_API_KEY')).toBe(ownKey);
    expect(agent.get('CLAUDE_CODE_OAUTH_TOKEN')).toBe('oauth-OWN-token-1234');
    expect(agent.get('NODE_EXTRA_CA_CERTS')).toBe('/etc/ssl/corp.pem');
    expect(agent.get('HTTPS_PROXY')).toBe('http://proxy.corp:8080');
    for (const name of ['PATH', 'HOME', 'LANG', 'TZ', 'TERM', 'USER']) expect(agent.get(name), name).toBe(env[name as keyof typeof env]);

    const startLine = r.stderr.split('\n').find((line) => line.includes('Agent environment: withheld'));
    expect(startLine).toBeDefined();
    expect(startLine).toContain('GITHUB_TOKEN');
    expect(startLine).toContain('removed credentials from');
    expect(startLine).toContain('HTTPS_PROXY');
    expect(plantedIn(r.stderr + r.stdout)).toEqual([]);
    expect(PLANTED_VALUES.length).toBe(Object.keys(PLANTED_SECRETS).length);
  });

  it('passes a variable through when named by --agent-env or AGENT_ENV in .ralphrc', async () => {
    const dir = ralphProject({ ralphrc: 'AGENT_ENV="GH_TOKEN"\n' });
    const dump = join(tempDir('agent-env-'), 'env.txt');
    const fake = fakeClaude([], { default: { stdout: done, shell: `printf '%s|%s|%s' "$NPM_TOKEN" "$GH_TOKEN" "$GITHUB_TOKEN" > '${dump}'` } });
    await ralph(['--max-loops', '1', '--pause', '0', '--agent-env', 'NPM_TOKEN'], dir, { ...fake.env, ...PLANTED_SECRETS });
    expect(readFileSync(dump, 'utf8')).toBe(`${PLANTED_SECRETS['NPM_TOKEN']}|${PLANTED_SECRETS['GH_TOKEN']}|`);
  });
});
