// `ralph --sandbox` against the real sandbox runtime (bubblewrap, socat) and a fake `claude`
// whose call runs shell commands inside the sandbox: what it may do, what it is refused, and
// what Ralph records of it.
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_NAMES, EXCLUDE_BEGIN } from '../../src/core/sandbox-placeholders.js';
import { git } from '../helpers/git-repo.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, readJsonLines, ROOT } from '../helpers/run-cli.js';
import { allFiles, bwrapUnavailable, PLANTED_KEY, sandboxWorld } from '../helpers/sandbox-world.js';
import { skipNote } from '../helpers/skip-note.js';

const PROBE = join(ROOT, 'tests', 'fixtures', 'sandbox', 'net-probe.mjs');
const unavailable = skipNote('the sandbox tests', bwrapUnavailable());
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe.skipIf(unavailable !== undefined)(`ralph --sandbox${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('lets the agent work in the project and refuses its home, its keys, local servers and hosts not allowed', async () => {
    const world = sandboxWorld();
    let allowedRequests = 0;
    const allowedPort = await listen(
      createHttpServer((_req, res) => {
        allowedRequests += 1;
        res.end('ok-from-allowed\n');
      }),
    );
    let directConnections = 0;
    const directPort = await listen(createTcpServer(() => (directConnections += 1)) as unknown as Server);
    const dir = ralphProject();
    const shell = [
      'echo made-inside > inside.txt',
      '(echo escaped > "$HOME/escaped.txt") 2>/dev/null || echo home-write-refused > home.txt',
      '(cat "$HOME/.ssh/id_rsa" > stolen.txt) 2>/dev/null || echo key-read-refused > key.txt',
      `node ${PROBE} direct ${directPort} > direct.txt`,
      `node ${PROBE} proxy http://127.0.0.1:${allowedPort}/ok > allowed.txt`,
      `node ${PROBE} proxy http://blocked.example/ > blocked.txt`,
      '(git add -A && git commit -qm "agent work") > commit.txt 2>&1 || echo commit-failed >> commit.txt',
    ].join('; ');
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell }], { env: {} });
    const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const r = await ralph(
      ['--sandbox', '--sandbox-allow-domain', `127.0.0.1:${allowedPort}`, '--sandbox-allow-write', fake.stateDir, '--max-loops', '1', '--pause', '0'],
      dir,
      env,
      90_000,
    );
    expect(r.stderr).toContain('Sandbox on');
    expect(r.exitCode).toBe(7);

    // Inside the project: allowed, and the agent's own commit works (no placeholder in its way).
    expect(readFileSync(join(dir, 'inside.txt'), 'utf8')).toBe('made-inside\n');
    expect(readFileSync(join(dir, 'commit.txt'), 'utf8')).not.toContain('commit-failed');
    const committed = git(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
    expect(committed).toContain('inside.txt');
    for (const name of PLACEHOLDER_NAMES) expect(committed).not.toContain(name);

    // $HOME and the key: refused.
    expect(existsSync(join(world.home, 'escaped.txt'))).toBe(false);
    expect(readFileSync(join(dir, 'home.txt'), 'utf8')).toBe('home-write-refused\n');
    expect(readFileSync(join(dir, 'key.txt'), 'utf8')).toBe('key-read-refused\n');
    const secret = PLANTED_KEY.split('\n')[1] as string;
    for (const file of [...allFiles(join(dir, '.ralph')), ...allFiles(dir).filter((f) => !f.includes('/.git/'))])
      expect(readFileSync(file, 'latin1'), file).not.toContain(secret);
    expect(r.stdout + r.stderr).not.toContain(secret);

    // The network: a local server directly is out of reach; through the proxy, only what is allowed.
    expect(readFileSync(join(dir, 'direct.txt'), 'utf8')).toMatch(/^refused/);
    expect(directConnections).toBe(0);
    expect(readFileSync(join(dir, 'allowed.txt'), 'utf8')).toBe('status 200 ok-from-allowed\n');
    expect(allowedRequests).toBe(1);
    expect(readFileSync(join(dir, 'blocked.txt'), 'utf8')).toMatch(/^status 403/);

    // Refusals: recorded per iteration, told as they happen, summed up at the end.
    const refused = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'sandbox.refused');
    const details = refused.map((e) => (e['data'] as { kind: string; detail: string }).detail);
    expect(details.some((d) => d.includes('blocked.example'))).toBe(true);
    expect(details.some((d) => d.includes('escaped.txt'))).toBe(true);
    expect(refused.every((e) => (e['data'] as { iteration: number }).iteration === 1)).toBe(true);
    expect(r.stderr).toContain('Sandbox refused the agent: deny network-outbound blocked.example:80');
    expect(r.stderr).toMatch(/The sandbox refused \d+ actions? this run:/);
    expect(r.stderr).toContain('--sandbox-allow-domain <host>');

    // Progress counts the agent's files, never the runtime's stand-ins.
    const analysis = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).find((e) => e['event'] === 'analysis');
    const changed = (analysis?.['data'] as { changed_files: string[] }).changed_files;
    expect(changed.length).toBeGreaterThan(0);
    for (const name of PLACEHOLDER_NAMES) expect(changed).not.toContain(name);

    // Nothing of the sandbox is left in the project or its git settings.
    for (const name of PLACEHOLDER_NAMES) expect(existsSync(join(dir, name)), name).toBe(false);
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).not.toContain(EXCLUDE_BEGIN);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('runs the verify command contained by default; --verify-outside-sandbox runs it outside and says so', async () => {
    const world = sandboxWorld();
    const verify = 'echo v > "$HOME/verify-was-here.txt"; test -f inside.txt';
    const run = async (extra: string[]): Promise<{ dir: string; stderr: string; exitCode: number | undefined }> => {
      const dir = ralphProject();
      const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell: 'echo made-inside > inside.txt' }]);
      const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
      const r = await ralph(
        ['--sandbox', '--sandbox-allow-write', fake.stateDir, '--verify', verify, '--max-loops', '1', '--pause', '0', ...extra],
        dir,
        env,
        90_000,
      );
      return { dir, stderr: r.stderr, exitCode: r.exitCode };
    };
    // The agent wrote the tests: by default they run in the sandbox, and the start says so.
    const contained = await run([]);
    expect(contained.stderr).toContain('The verify command runs in the sandbox too (--verify-outside-sandbox runs it outside)');
    expect(contained.stderr).toContain('✅ Verify passed');
    expect(existsSync(join(world.home, 'verify-was-here.txt'))).toBe(false);
    expect(contained.stderr).toMatch(/Sandbox refused the verify command: deny \S+ .*verify-was-here\.txt/);
    // Opted out: it runs as it is, and the start warns that it does.
    const uncontained = await run(['--verify-outside-sandbox']);
    expect(uncontained.stderr).toContain('The verify command runs OUTSIDE the sandbox (--verify-outside-sandbox)');
    expect(uncontained.stderr).toContain('✅ Verify passed');
    expect(readFileSync(join(world.home, 'verify-was-here.txt'), 'utf8')).toBe('v\n');
  });

  it('shows the effective policy in ralph --config', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ ralphrc: 'RALPH_SANDBOX=true\nRALPH_SANDBOX_ALLOW_DOMAINS="registry.npmjs.org"\n' });
    const r = await ralph(['--config', '--backend', 'claude', '--sandbox-allow-domain', '*.github.com', '--sandbox-allow-write', '~/cache'], dir, world.env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Sandbox: on, the verify command too');
    expect(r.stdout).toMatch(/may write: +.*~\/\.claude, ~\/\.claude\.json, ~\/cache/);
    expect(r.stdout).toMatch(/cannot read: +~\/\.ssh, ~\/\.aws/);
    expect(r.stdout).toMatch(/read-only: +~\/\.claude\/settings\.json, .*~\/\.claude\/\.credentials\.json, Ralph's own files \(\.ralphrc, the prompt/);
    expect(r.stdout).toMatch(/cannot read: .*~\/\.codex\/auth\.json/);
    expect(r.stdout).toContain('may connect:   api.anthropic.com, registry.npmjs.org, *.github.com');
    expect(r.stdout).toMatch(/RALPH_SANDBOX_ALLOW_DOMAINS +registry\.npmjs\.org,\*\.github\.com +\(flag/);
    const contradiction = await ralph(['--config', '--sandbox-verify', '--verify-outside-sandbox'], dir, world.env());
    expect(contradiction.exitCode).toBe(2);
    expect(contradiction.stderr).toContain('--sandbox-verify and --verify-outside-sandbox contradict each other');
  });
});
