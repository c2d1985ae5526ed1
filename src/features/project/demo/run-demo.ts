import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '../../../core/time-format.js';
import { ownRepositoryConfig, runGitText } from '../../../infra/git.js';
import { createProcessRunner } from '../../../infra/process-runner.js';
import { readDocument } from '../../../state/document-store.js';
import { STATUS } from '../../../state/documents/status.js';
import { ralphPaths } from '../../../state/paths.js';
import { readEventLog } from '../../observe/loop-files.js';
import { createRalphLayout } from '../setup/ralph-layout.js';
import { DEMO_FILES, DEMO_PLAN, DEMO_VERIFY_COMMAND, demoResponses } from './demo-project.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

export interface DemoOptions {
  keep: boolean;
  /** Runs the loop in the demo project with these flag values (config fields); returns its exit code. */
  runLoop(projectDir: string, flags: Record<string, string>): Promise<number>;
  write(text: string): void;
}

const DEMO_IDENTITY = { name: 'Ralph Demo', email: 'ralph-demo@localhost' };

/** Creates the demo project in a temp dir: Ralph's layout, the calculator, a git repo. */
export async function createDemoProject(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ralph-demo-'));
  createRalphLayout(dir, { projectName: 'ralph-demo', fixPlan: DEMO_PLAN, commands: { test: DEMO_VERIFY_COMMAND } });
  for (const [name, content] of Object.entries(DEMO_FILES)) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, PROJECT_FILES.mockScript), `${JSON.stringify({ responses: demoResponses() }, null, 2)}\n`);
  const runner = createProcessRunner();
  const git = async (...args: string[]): Promise<void> => {
    const result = await runGitText(runner, args, { cwd: dir, identity: DEMO_IDENTITY });
    if (result.exitCode !== 0) throw new Error(`git ${args[0] ?? ''} failed in ${dir}: ${(result.stderr || result.spawnError || '').trim()}`);
  };
  await git('init', '-q');
  // The demo must work on a machine without a global git config, also for whoever commits in it later.
  for (const [key, value] of ownRepositoryConfig(DEMO_IDENTITY)) await git('config', key, value);
  await git('add', '-A');
  await git('commit', '-q', '-m', 'Demo project');
  return dir;
}

/** What happened, from the files the loop wrote (the same ones ralph-monitor and ralph-stats read). */
export function summarizeDemo(dir: string): string {
  const paths = ralphPaths(dir);
  const status = readDocument(paths, STATUS);
  const records = readEventLog(paths.sessionRecording).records;
  const verifies = records.filter((r) => r.event === 'verify.result').map((r) => r.data as Record<string, unknown>);
  const lines = ['', '━━━ Demo summary ━━━'];
  if (status.kind === 'ok') {
    const s = status.value;
    lines.push(`Iterations:   ${s.loop_count}`);
    lines.push(`Verify runs:  ${verifies.map((v) => (v['passed'] === true ? 'pass' : 'fail')).join(' → ') || 'none'}  (${DEMO_VERIFY_COMMAND})`);
    lines.push(`Cost:         $${s.totals.cost_usd.toFixed(4)} (simulated), ${s.totals.input_tokens + s.totals.output_tokens} tokens`);
    lines.push(`Exit reason:  ${s.exit_reason} (exit code ${s.exit_code ?? '?'})`);
    const exit = records.find((r) => r.event === 'loop.exit')?.data as Record<string, unknown> | undefined;
    if (typeof exit?.['elapsed_secs'] === 'number') lines.push(`Time:         ${formatDuration(exit['elapsed_secs'])}`);
  } else {
    lines.push('The loop wrote no status file; see the log above.');
  }
  lines.push('', 'The agent was scripted (mock backend); the verify command decided when the work was done.');
  return lines.join('\n');
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const dir = await createDemoProject();
  const w = options.write;
  w(`🎬 Ralph demo — a scripted agent works on a small project in ${dir}\n`);
  w(`   Plan: 3 tasks in .ralph/fix_plan.md · verify gate: \`${DEMO_VERIFY_COMMAND}\` · no API key, no network\n\n`);
  try {
    const code = await options.runLoop(dir, { backend: 'mock', verifyCommand: DEMO_VERIFY_COMMAND, pauseSeconds: '0.5', maxLoops: '10' });
    w(`${summarizeDemo(dir)}\n`);
    w(`\ncalc.js as the agent left it:\n${readFileSync(join(dir, 'calc.js'), 'utf8').replace(/^/gm, '  ')}`);
    w(
      options.keep
        ? `\nThe demo project is kept in ${dir}. Try: cd ${dir} && ralph --status && ralph-stats && ralph --inspect --format timeline\n`
        : '\n(The demo project was removed; `ralph demo --keep` keeps it to look around in.)\n',
    );
    return code;
  } finally {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}
