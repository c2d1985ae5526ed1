// The entry script of Ralph's GitHub Action (action.yml): runs one task, or one GitHub issue,
// as one job, with the environment GitHub Actions provides (GITHUB_WORKSPACE, GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, GITHUB_REPOSITORY, GITHUB_API_URL) and the action's inputs (INPUT_*).
// Its outputs come from Ralph's machine-readable report, and its exit code is Ralph's, so the
// job fails exactly when the run did not complete.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RALPH = resolve(import.meta.dirname, '..', '..', 'bin', 'ralph.js');

/** What each of Ralph's exit codes means, for the job's annotation. */
const EXIT_MEANINGS = {
  0: 'completed',
  1: 'runtime error',
  2: 'usage or configuration error',
  3: 'circuit breaker open (no progress)',
  4: 'permission denied',
  5: 'usage or rate limit of the agent',
  6: 'verify command failed (aborted)',
  7: 'limit reached (max loops, cost or runtime)',
  130: 'interrupted',
  143: 'terminated',
};

/** An input as action.yml hands it over: INPUT_<NAME>, dashes as underscores. */
const input = (name) => (process.env[`INPUT_${name.toUpperCase().replace(/[ -]/g, '_')}`] ?? '').trim();

/** Splits extra arguments like a shell would for quotes: 'a "b c"' → ['a', 'b c']. */
export function splitArgs(text) {
  const args = [];
  let current = '';
  let quote = '';
  let has = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || current !== '') args.push(current);
      current = '';
      has = false;
    } else {
      current += ch;
    }
  }
  if (quote) throw new Error(`the extra arguments have an unclosed ${quote} quote: ${text}`);
  if (has || current !== '') args.push(current);
  return args;
}

function fail(message, code = 2) {
  process.stdout.write(`::error title=Ralph::${message}\n`);
  process.exitCode = code;
}

/** One output per line; a value with a line break goes in GitHub's delimited form. */
function writeOutputs(outputs) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const lines = Object.entries(outputs).map(([name, value]) => {
    const text = value === null || value === undefined ? '' : String(value);
    if (!text.includes('\n')) return `${name}=${text}\n`;
    const delimiter = `ralph_${Math.random().toString(16).slice(2)}`;
    return `${name}<<${delimiter}\n${text}\n${delimiter}\n`;
  });
  appendFileSync(file, lines.join(''));
}

function writeSummary(what, outputs) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  const code = Number(outputs['exit-code']);
  const rows = [
    ['Result', `${code === 0 ? '✅' : '❌'} ${EXIT_MEANINGS[code] ?? 'exit code'} (${outputs['exit-code']})`],
    ['Exit reason', outputs['exit-reason']],
    ['Iterations', outputs.iterations],
    ['Cost', outputs.cost === '' ? '' : `$${Number(outputs.cost).toFixed(4)}`],
    ['Branch', outputs.branch],
    ['Pull request', outputs['pr-url']],
  ].filter(([, value]) => value !== '' && value !== undefined);
  const table = rows.map(([name, value]) => `| ${name} | ${String(value).replace(/\|/g, '\\|')} |`).join('\n');
  appendFileSync(file, `### Ralph: ${what}\n\n| | |\n|---|---|\n${table}\n\n`);
}

function ralph(args, cwd) {
  const result = spawnSync(process.execPath, [RALPH, ...args], { cwd, stdio: 'inherit', env: process.env });
  if (result.error) throw result.error;
  return result.status ?? (result.signal === 'SIGTERM' ? 143 : 130);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The loop flags from the inputs; an issue's verify command goes with the issue instead. */
function loopFlags(withVerify) {
  const flags = [];
  const named = [['backend', '--backend'], ['max-loops', '--max-loops'], ['max-cost', '--max-cost'], ...(withVerify ? [['verify', '--verify']] : [])];
  for (const [name, flag] of named) {
    const value = input(name);
    if (value !== '') flags.push(flag, value);
  }
  return [...flags, ...splitArgs(input('args'))];
}

function runTask(task, cwd) {
  const report = join(process.env.RUNNER_TEMP || tmpdir(), `ralph-report-${process.pid}.json`);
  const code = ralph(['run', task, ...loopFlags(true), '--report', report], cwd);
  const doc = readJson(report) ?? {};
  return {
    'exit-reason': doc.exit_reason ?? '',
    'exit-code': String(doc.exit_code ?? code),
    cost: doc.cost_usd === undefined ? '' : String(doc.cost_usd),
    iterations: doc.iterations === undefined ? '' : String(doc.iterations),
    branch: doc.branch ?? '',
    'pr-url': doc.pr_url ?? '',
  };
}

/** follow-checks and its inputs: the pull request's checks (and reviews) are followed before the issue counts as done. */
function followFlags() {
  if (input('follow-checks') !== 'true') return [];
  const max = input('follow-max');
  return ['--follow-checks', ...(input('follow-reviews') === 'true' ? ['--follow-reviews'] : []), ...(max !== '' ? ['--follow-max', max] : [])];
}

function runIssue(issue, cwd) {
  const repo = input('repo') || process.env.GITHUB_REPOSITORY || '';
  const repoArgs = repo !== '' ? ['--repo', repo] : [];
  const verify = input('verify');
  const added = ralph(['queue', 'add', '--github-issues', issue, ...repoArgs, ...(verify !== '' ? ['--verify', verify] : [])], cwd);
  if (added !== 0) return { 'exit-reason': 'queue_add_failed', 'exit-code': String(added), cost: '', iterations: '', branch: '', 'pr-url': '' };
  const lifecycle =
    input('pull-request') === 'false' ? [] : ['--pr', '--comment-progress', ...(input('auto-close') === 'true' ? ['--auto-close'] : []), ...followFlags()];
  const code = ralph(['queue', 'run', ...lifecycle, ...(lifecycle.length > 0 ? repoArgs : []), ...loopFlags(false)], cwd);
  const item = (readJson(join(cwd, '.ralph', 'queue.json'))?.items ?? []).find((candidate) => candidate.id === `gh-${issue}`);
  const result = item?.result ?? {};
  return {
    'exit-reason': result.exit_reason ?? (code === 0 ? '' : 'not_run'),
    'exit-code': String(code !== 0 ? code : (result.exit_code ?? code)),
    cost: result.cost === undefined ? '' : String(result.cost),
    iterations: result.iterations === undefined ? '' : String(result.iterations),
    branch: result.branch ?? item?.branch ?? '',
    'pr-url': result.pr_url ?? '',
  };
}

function main() {
  const task = input('task');
  const issue = input('issue').replace(/^#/, '');
  if ((task === '') === (issue === '')) return fail('give exactly one of the inputs task and issue.');
  if (issue !== '' && !/^\d+$/.test(issue)) return fail(`the input issue must be an issue number, not "${issue}".`);
  const cwd = process.env.GITHUB_WORKSPACE || process.cwd();
  let outputs;
  try {
    outputs = task !== '' ? runTask(task, cwd) : runIssue(issue, cwd);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  writeOutputs(outputs);
  writeSummary(task !== '' ? task : `issue #${issue}`, outputs);
  const code = Number(outputs['exit-code']);
  if (code !== 0)
    fail(
      `the run ended with exit code ${code}: ${EXIT_MEANINGS[code] ?? 'see the log above'}${outputs['exit-reason'] ? ` (${outputs['exit-reason']})` : ''}.`,
      code,
    );
}

main();
