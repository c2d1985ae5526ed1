// Planted secrets, echoed by the agent and by the verify command, must not appear in anything Ralph writes or prints.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANTED_SECRETS, plantedIn } from '../helpers/planted-secrets.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, resultJson, statusBlock } from '../helpers/run-cli.js';

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const quoted = (value: string): string => `'${value}'`;
const allValues = Object.values(PLANTED_SECRETS);

describe('secret values in what Ralph writes and prints', () => {
  it('are redacted everywhere under .ralph/ and on stdout/stderr, whoever echoed them', async () => {
    const dir = ralphProject({ git: true });
    const said = `I found these:\n${allValues.join('\n')}\n`;
    const fake = fakeClaude([], {
      default: { stdout: resultJson(`${said}${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`), stderr: said, shell: 'echo work >> work.txt' },
    });
    const env = { ...fake.env, ...PLANTED_SECRETS };
    const verify = `printf '%s\\n' ${allValues.map(quoted).join(' ')}; printf '%s\\n' ${allValues.map(quoted).join(' ')} "$DEPLOY_PASSWORD" >&2; exit 1`;
    // A secret that only exists on Ralph's command line, for the verify command.
    const flagOnly = 'PLANTED-flag-only-9999';
    const args = [
      '--max-loops',
      '2',
      '--pause',
      '0',
      '--verbose',
      '--verify',
      verify,
      '--verify-max',
      '1',
      '--on-verify-exhausted',
      'abort',
      '--verify-env',
      `NPM_TOKEN=${PLANTED_SECRETS['NPM_TOKEN']}`,
      '--verify-env',
      `DEPLOY_PASSWORD=${flagOnly}`,
      '--agent-env',
      'GH_TOKEN',
    ];

    const run = await ralph(args, dir, env);
    expect(run.exitCode).toBe(6);
    const config = await ralph([...args, '--config'], dir, env);
    expect(config.exitCode).toBe(0);

    const files = filesUnder(join(dir, '.ralph'));
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(['.ralph/status.json', '.ralph/.verify_gate', '.ralph/logs/ralph.log', '.ralph/logs/session.jsonl', '.ralph/live.log']),
    );
    expect(files.some((f) => /claude_output_.*_loop1\.log$/.test(f))).toBe(true);
    const leaks = files.flatMap((file) => plantedIn(readFileSync(file, 'latin1')).map((marker) => `${file.slice(dir.length + 1)}: ${marker}`));
    expect(leaks).toEqual([]);
    expect(files.filter((file) => readFileSync(file, 'utf8').includes(flagOnly))).toEqual([]);
    expect(readFileSync(join(dir, '.ralph', '.verify_gate'), 'utf8')).toContain('[REDACTED:DEPLOY_PASSWORD]');
    expect(plantedIn(run.stdout + run.stderr)).toEqual([]);
    expect(plantedIn(config.stdout + config.stderr)).toEqual([]);
    expect(config.stdout + config.stderr + run.stdout + run.stderr).not.toContain(flagOnly);
    expect(run.stderr).toContain('[REDACTED:');
    expect(run.stderr).toContain('Verify command environment: removed credentials from GOFLAGS, MAVEN_OPTS');
    // The agent's output log still says what it said, minus the values.
    const outputLog = files.find((f) => /claude_output_.*_loop1\.log$/.test(f)) as string;
    expect(readFileSync(outputLog, 'utf8')).toContain('[REDACTED:GITHUB_TOKEN]');
  });

  it('a .ralphrc that expands a secret into a setting is refused with the file, line and variable', async () => {
    const dir = ralphProject({ ralphrc: '# project\nVERIFY_COMMAND="npm publish --token $NPM_TOKEN"\n' });
    const fake = fakeClaude([]);
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, { ...fake.env, ...PLANTED_SECRETS });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('.ralphrc:2');
    expect(r.stderr).toContain('$NPM_TOKEN looks like a secret');
    expect(r.stderr).toContain('--verify-env NPM_TOKEN=');
    expect(plantedIn(r.stderr + r.stdout)).toEqual([]);
    expect(fake.calls()).toEqual([]);
  });

  it('are redacted from ralph --status and --status --json, which print without creating process.stdout', async () => {
    const dir = ralphProject({ git: true });
    const value = PLANTED_SECRETS['NPM_TOKEN'] as string;
    // A status file that holds a secret (an older Ralph, or a hand edit): what --status shows of it is still redacted.
    writeFileSync(
      join(dir, '.ralph', 'status.json'),
      `${JSON.stringify({ timestamp: '2026-11-23T20:56:44+00:00', loop_count: 1, last_action: 'stopped', status: 'stopped', message: `token ${value} leaked` })}\n`,
    );
    const env = { ...PLANTED_SECRETS };
    for (const args of [['--status'], ['--status', '--json']]) {
      const run = await ralph(args, dir, env);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain('leaked');
      expect(plantedIn(run.stdout)).toEqual([]);
    }
  });
});
