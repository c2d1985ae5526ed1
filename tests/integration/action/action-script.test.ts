// The GitHub Action's entry script (scripts/action/run-ralph.mjs) run locally with the
// environment GitHub Actions provides: GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// GITHUB_REPOSITORY and GITHUB_API_URL pointed at a fake GitHub on 127.0.0.1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { startFakeGithub } from '../../helpers/fake-github.js';
import { git } from '../../helpers/git-repo.js';
import { PLANTED_SECRETS } from '../../helpers/planted-secrets.js';
import { cleanEnv, ROOT } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { queueProject, writeItemScript } from '../queue/queue-run-helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'action', 'run-ralph.mjs');
const TOKEN = PLANTED_SECRETS['GITHUB_TOKEN'] as string;

interface ActionRun {
  exitCode: number | undefined;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/** GITHUB_OUTPUT's name=value lines (and name<<delimiter blocks) as a record. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const block = /^([\w-]+)<<(\S+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2] ?? '', i + 1);
      outputs[block[1] ?? ''] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

async function runAction(workspace: string, inputs: Record<string, string>, extra: Record<string, string> = {}): Promise<ActionRun> {
  const runner = tempDir('action-runner-');
  const output = join(runner, 'output');
  const summary = join(runner, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: Record<string, string> = {
    ...cleanEnv(extra),
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: runner,
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase().replace(/-/g, '_')}`, value])),
  };
  const r = await execa(process.execPath, [SCRIPT], { cwd: runner, env, extendEnv: false, reject: false, timeout: 110_000, stdin: 'ignore' });
  return { exitCode: r.exitCode, stdout: String(r.stdout), outputs: parseOutputs(readFileSync(output, 'utf8')), summary: readFileSync(summary, 'utf8') };
}

describe('the action’s entry script', () => {
  it('runs a task and writes its outputs and a step summary from the run report', async () => {
    const project = queueProject({ 'README.md': '# app\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' }, costUsd: 0.125 }]);
    const run = await runAction(project, {
      task: '>>alpha',
      verify: 'test -f alpha.txt',
      backend: 'mock',
      'max-loops': '3',
      args: `--mock-script "${script}" --pause 0`,
    });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.outputs).toEqual({ 'exit-reason': 'project_complete', 'exit-code': '0', cost: '0.125', iterations: '1', branch: 'main', 'pr-url': '' });
    expect(run.summary).toContain('### Ralph: >>alpha');
    expect(run.summary).toContain('| Result | ✅ completed (0) |');
    expect(run.summary).toContain('| Cost | $0.1250 |');
    expect(run.stdout).not.toContain('::error');
  });

  it('maps a run that did not complete to a failed job with its exit code and why', async () => {
    const project = queueProject({ 'README.md': '# app\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript([{ trigger: 'alpha', files: { 'other.txt': 'x\n' } }]);
    const run = await runAction(project, { task: '>>alpha :: verify:"test -f alpha.txt"', backend: 'mock', args: `--mock-script ${script} --pause 0` });
    expect(run.exitCode).toBe(6);
    expect(run.outputs['exit-code']).toBe('6');
    expect(run.outputs['exit-reason']).toBe('verify_aborted');
    expect(run.stdout).toContain('::error title=Ralph::the run ended with exit code 6: verify command failed (aborted) (verify_aborted).');
    expect(run.summary).toContain('| Result | ❌ verify command failed (aborted) (6) |');
  });

  it('resolves an issue: its branch pushed, a pull request against the fake GitHub, the outputs naming it', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: 'octo/app', issues: [{ number: 12, title: 'Fix the login', body: 'It fails.' }] });
    const project = queueProject({ 'README.md': '# app\n', '.gitignore': '.ralph/\n' });
    const remote = join(tempDir('action-remote-'), 'app.git');
    git(project, 'init', '-q', '--bare', remote);
    git(project, 'remote', 'add', 'origin', remote);
    git(project, 'push', '-q', 'origin', 'main');
    const script = writeItemScript([{ trigger: 'Fix the login', files: { 'login.txt': 'fixed\n' } }]);
    const run = await runAction(
      project,
      { issue: '12', verify: 'test -f login.txt', backend: 'mock', 'auto-close': 'true', args: `--mock-script ${script} --pause 0` },
      { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: 'octo/app', PATH: `${join(process.execPath, '..')}:/usr/bin:/bin` },
    );
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-reason': 'project_complete', 'exit-code': '0', iterations: '1', branch: 'ralph/gh-12' });
    expect(run.outputs['pr-url']).toMatch(/^https:\/\/github\.com\/octo\/app\/pull\/\d+$/);
    expect(gh.pulls.map((p) => [p.head, p.base])).toEqual([['ralph/gh-12', 'main']]);
    expect(gh.pulls[0]?.body).toContain('Closes #12');
    expect(gh.issues.get(12)?.state).toBe('closed');
    expect(git(remote, 'branch', '--list', 'ralph/gh-12').trim()).toBe('ralph/gh-12');
    expect(run.stdout).not.toContain(TOKEN);
  });

  it.each([
    [{}, '::error title=Ralph::give exactly one of the inputs task and issue.'],
    [{ task: 'x', issue: '3' }, '::error title=Ralph::give exactly one of the inputs task and issue.'],
    [{ issue: 'abc' }, '::error title=Ralph::the input issue must be an issue number, not "abc".'],
    [{ task: 'x', args: '--pause "0' }, '::error title=Ralph::the extra arguments have an unclosed " quote: --pause "0'],
  ])('refuses inputs %j (exit 2)', async (inputs, message) => {
    const run = await runAction(queueProject(), inputs);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toContain(message);
  });

  it('action.yml hands every input to the script and takes every output from it', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    const block = (name: string): string => text.slice(text.indexOf(`\n${name}:\n`) + name.length + 3).split(/\n\S/)[0] ?? '';
    const declared = [...block('inputs').matchAll(/^ {2}([\w-]+):$/gm)].map((m) => m[1]);
    const handed = [...text.matchAll(/INPUT_(\w+): \$\{\{ inputs\.([\w-]+) \}\}/g)].map((m) => [m[1], m[2]]);
    expect(handed.map(([env, name]) => [env, (name ?? '').toUpperCase().replace(/-/g, '_')]).every(([env, expected]) => env === expected)).toBe(true);
    expect(new Set([...handed.map(([, name]) => name), 'github-token'])).toEqual(new Set(declared));
    const outputs = [...block('outputs').matchAll(/^ {2}([\w-]+):\n[\s\S]*?value: \$\{\{ steps\.ralph\.outputs\.([\w-]+) \}\}/gm)].map((m) => [m[1], m[2]]);
    expect(outputs.map(([name]) => name)).toEqual(['exit-reason', 'exit-code', 'cost', 'iterations', 'branch', 'pr-url']);
    for (const [name, value] of outputs) expect(value).toBe(name);
    expect(text).toContain('GITHUB_TOKEN: ${{ inputs.github-token }}');
  });
});
