// A real loop against tests/fixtures/bin/claude, which dumps the environment it was given.
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_SECRETS, HARMLESS_VARIABLES, adversarialEnv, adversarialLeaks } from '../helpers/adversarial-env.js';
import { PLANTED_SECRETS, PLANTED_VALUES, plantedIn } from '../helpers/planted-secrets.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { FAKE_BIN, fakeClaude, ralph, resultJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const done = resultJson(`Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

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

  it("keeps the attacker's list from the agent, its version check, the verify command and Ralph's files, and passes the harmless variables", async () => {
    const dumps = tempDir('agent-env-');
    const dumpTo = (file: string): string => `node -e 'process.stdout.write(JSON.stringify(process.env))' > '${join(dumps, file)}'`;
    writeFileSync(join(dumps, 'verify.sh'), `#!/bin/sh\n${dumpTo('verify.json')}\n`);
    chmodSync(join(dumps, 'verify.sh'), 0o755);
    const dir = ralphProject({ ralphrc: `VERIFY_COMMAND="${join(dumps, 'verify.sh')}"\n` });
    // The agent echoes every value it could have seen: what Ralph writes of its answer must not carry them.
    const echoed = resultJson(`Done. ${ADVERSARIAL_SECRETS.map((s) => s.value).join(' ')}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);
    const fake = fakeClaude([], { default: { stdout: echoed, shell: dumpTo('call.json') } });
    // The configured command dumps the environment of its --version check, then runs the fake CLI.
    const wrapper = join(dumps, 'claude');
    writeFileSync(
      wrapper,
      `#!/bin/sh\ncase "$*" in *--version*) node -e 'process.stdout.write(JSON.stringify(process.env))' > '${join(dumps, 'version.json')}';; esac\nexec '${join(FAKE_BIN, 'claude')}' "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const env = { ...adversarialEnv(), ...fake.env, CLAUDE_CODE_CMD: wrapper };
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, env);
    expect(r.stderr).toContain('Claude Code 2.1.197');
    for (const file of ['version.json', 'call.json', 'verify.json']) {
      const text = readFileSync(join(dumps, file), 'utf8');
      expect(adversarialLeaks(text), file).toEqual([]);
      const seen = JSON.parse(text) as Record<string, string>;
      for (const [name, value] of Object.entries(HARMLESS_VARIABLES))
        if (file !== 'verify.json' && !(name in fake.env) && name !== 'PATH' && name !== 'HOME' && name !== 'PWD')
          expect(seen[name], `${file} ${name}`).toBe(value);
    }
    const files = listFiles(join(dir, '.ralph'));
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((file) => adversarialLeaks(readFileSync(file, 'latin1')).map((name) => `${file}: ${name}`))).toEqual([]);
    expect(ADVERSARIAL_SECRETS.length).toBeGreaterThanOrEqual(30);
    expect(adversarialLeaks(r.stdout + r.stderr)).toEqual([]);
  });
});
