import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { gitRepo } from '../../helpers/git-repo.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { cleanEnv, ROOT } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * The measure of the agent seam: a fifth agent is its own folder plus one entry in
 * src/backends/agents.ts, and nothing else. The test copies Ralph's sources, adds an "echo
 * agent" that way, type-checks and builds the copy, and runs it end to end: the agent's config
 * keys exist, `--backend` offers it, and a loop with it completes.
 */

/** The echo agent's declaration: what Ralph knows of it without loading its code. */
const ECHO_AGENT_TS = `import { defineAgent } from '../agent-declaration.js';

export const ECHO_AGENT = defineAgent({
  name: 'echo',
  displayName: 'Echo agent',
  about: 'prints its answer',
  capabilities: { resume: false, cost: false, liveView: true, permissionDenials: false, usageLimits: false, allowedTools: false },
  sandbox: { configDirs: [], hosts: [], baseUrlVariables: [] },
  settings: {
    command: { field: 'echoCommand', key: 'ECHO_CMD', default: ['echo-agent'], doc: 'Command that runs the echo agent' },
    model: { field: 'echoModel', key: 'ECHO_MODEL', doc: 'Model of the echo agent (empty = its default)' },
    extraArgs: { field: 'echoExtraArgs', key: 'ECHO_EXTRA_ARGS', doc: 'Arguments added to every echo agent call' },
    minVersion: { field: 'echoMinVersion', key: 'ECHO_MIN_VERSION', default: '1.0.0', doc: 'Oldest echo agent version Ralph runs with' },
  },
  load: async () => import('./echo-backend.js'),
});
`;

/** The echo agent's code: its argv, a reader of its plain-text answer, and its classifier. */
const ECHO_BACKEND_TS = `import { emptyAgentResult, type AgentResult } from '../../agent-result.js';
import type { AgentOwnEnv } from '../../core/agent-env.js';
import { digestOf } from '../../core/text-digest.js';
import type { AgentBackend } from '../../ports.js';
import { agentEnvFor, agentEnvironment } from '../agent-environment.js';
import { CliAgentBackend, type AgentCli } from '../cli-agent/cli-agent.js';
import { cliSettingValues, processHost } from '../cli-agent/cli-context.js';
import { unexitedOutcome, type CliRun } from '../cli-agent/cli-run.js';
import { checkCliBeforeLoop } from '../cli-version-check.js';
import type { BackendContext } from '../context.js';
import { ECHO_AGENT } from './echo-agent.js';

const OWN: AgentOwnEnv = { prefixes: ['ECHO_'], names: [] };

function echoCli(command: readonly string[], extraArgs: readonly string[]): AgentCli<string> {
  return {
    name: ECHO_AGENT.name,
    displayName: ECHO_AGENT.displayName,
    commandLabel: 'Echo',
    buildCall(request) {
      const [file = 'echo-agent', ...prefix] = command;
      return { file, args: [...prefix, ...extraArgs, '-p', request.prompt], shown: \`\${command.join(' ')} -p <prompt:\${request.prompt.length} chars>\` };
    },
    describeOutput: () => 'text',
    createReader(onProgress) {
      let text = '';
      return {
        write: (piece) => {
          text += piece;
        },
        end: () => {
          onProgress?.({ kind: 'message', text });
          return text;
        },
      };
    },
    classify(run: CliRun<string>): AgentResult {
      const outcome = unexitedOutcome(run, 'the echo agent') ?? (run.exitCode === 0 ? { kind: 'success' } : { kind: 'failed', message: \`exit code \${run.exitCode}\`, resetSession: false });
      return {
        ...emptyAgentResult(outcome, run.end, run.durationMs),
        text: digestOf(run.output),
        format: 'text',
        complete: run.exitCode === 0,
        outputChars: run.output.length,
        exitCode: run.exitCode,
        stderrTail: run.stderrTail,
      };
    },
  };
}

export function create(ctx: BackendContext): AgentBackend {
  const settings = cliSettingValues(ctx.config, ECHO_AGENT.settings);
  return new CliAgentBackend(echoCli(settings.command, settings.extraArgs), processHost(ctx, agentEnvironment(ctx, OWN).env));
}

export function preflight(ctx: BackendContext): Promise<void> {
  return checkCliBeforeLoop(ctx, ECHO_AGENT, agentEnvFor(ctx, OWN).env);
}
`;

/** The echo agent's CLI: a version, and an answer that ticks the plan's task and says the work is done. */
const ECHO_CLI = `const fs = require('node:fs');
if (process.argv.includes('--version')) {
  console.log('echo-agent 1.2.3');
} else {
  const plan = '.ralph/fix_plan.md';
  fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ]', '- [x]'));
  const prompt = process.argv[process.argv.indexOf('-p') + 1] ?? '';
  console.log('Read ' + prompt.length + ' characters of prompt; nothing is left to do.');
  console.log('---RALPH_STATUS---\\nSTATUS: COMPLETE\\nEXIT_SIGNAL: true\\nWORK_TYPE: IMPLEMENTATION\\n---END_RALPH_STATUS---');
}
`;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

/** The files of `copy` that are new or differ from `original`. */
function changedFiles(original: string, copy: string): string[] {
  return filesUnder(copy).filter((path) => {
    try {
      return !readFileSync(join(original, path)).equals(readFileSync(join(copy, path)));
    } catch {
      return true;
    }
  });
}

/** A copy of Ralph's sources and build with the echo agent added the documented way. */
function ralphWithEchoAgent(): string {
  const copy = tempDir('ralph-fifth-agent-');
  for (const part of ['src', 'templates', 'bin', 'scripts', 'web', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  mkdirSync(join(copy, 'src', 'backends', 'echo'));
  writeFileSync(join(copy, 'src', 'backends', 'echo', 'echo-agent.ts'), ECHO_AGENT_TS);
  writeFileSync(join(copy, 'src', 'backends', 'echo', 'echo-backend.ts'), ECHO_BACKEND_TS);
  const registry = join(copy, 'src', 'backends', 'agents.ts');
  const text = readFileSync(registry, 'utf8');
  const registered = text
    .replace(/^(import [^\n]*\n)(?!import)/m, `$1import { ECHO_AGENT } from './echo/echo-agent.js';\n`)
    .replace(/(export const AGENTS = \[[^\]]*?)(MOCK_AGENT\])/, '$1ECHO_AGENT, $2');
  expect(registered).not.toBe(text);
  writeFileSync(registry, registered);
  return copy;
}

describe('a fifth agent', () => {
  it('is its own folder plus one registry entry: typed, configured, offered and run end to end', { timeout: 600_000 }, async () => {
    const copy = ralphWithEchoAgent();
    expect(changedFiles(join(ROOT, 'src'), join(copy, 'src'))).toEqual(['backends/agents.ts', 'backends/echo/echo-agent.ts', 'backends/echo/echo-backend.ts']);

    // The copy type-checks as it is: its config keys are typed from the declaration alone.
    writeFileSync(join(copy, 'tsconfig.src.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(copy, 'tsconfig.src.json')], {
      cwd: copy,
      stdio: 'pipe',
    });
    execFileSync(process.execPath, [join(copy, 'scripts', 'bundle.mjs')], { cwd: copy, stdio: 'pipe' });
    execFileSync(process.execPath, [join(copy, 'scripts', 'render-help.mjs')], { cwd: copy, stdio: 'pipe' });

    const echoCli = join(copy, 'echo-cli.cjs');
    writeFileSync(echoCli, ECHO_CLI);
    const project = ralphProject({
      ralphrc: `ECHO_CMD="${process.execPath} ${echoCli}"\n`,
      fixPlan: '# Fix Plan\n\n## High Priority\n- [ ] the only task\n',
    });
    const ralph = async (args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> => {
      const r = await execa(process.execPath, [join(copy, 'bin', 'ralph.js'), ...args], {
        cwd: project,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
    };

    const help = await ralph(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--backend <name> claude or codex or gemini or opencode or echo or mock');

    const config = await ralph(['--config', '--backend', 'echo']);
    expect(config.exitCode).toBe(0);
    expect(config.stdout).toContain('Backend: echo (Echo agent)');
    for (const key of ['ECHO_CMD', 'ECHO_MODEL', 'ECHO_EXTRA_ARGS', 'ECHO_MIN_VERSION']) expect(config.stdout).toContain(key);

    const run = await ralph(['--backend', 'echo', '--max-loops', '3', '--pause', '0']);
    expect(run.stderr).toContain('Echo agent 1.2.3');
    expect(run.exitCode, run.stderr).toBe(0);
    // A project set up for the agent documents its settings in its .ralphrc.
    const fresh = gitRepo();
    const enable = await execa(process.execPath, [join(copy, 'bin', 'ralph-enable.js'), '--non-interactive', '--backend', 'echo'], {
      cwd: fresh,
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(enable.exitCode, String(enable.stderr)).toBe(0);
    const ralphrc = readFileSync(join(fresh, '.ralphrc'), 'utf8');
    expect(ralphrc).toContain('# Command that runs the echo agent.\n');
    expect(ralphrc).toContain('# ECHO_MIN_VERSION=1.0.0\n');

    const outputLogs = readdirSync(join(project, '.ralph', 'logs')).filter((name) => name.endsWith('.log') && name.includes('output'));
    expect(outputLogs.length).toBeGreaterThan(0);
    expect(readFileSync(join(project, '.ralph', 'fix_plan.md'), 'utf8')).toContain('- [x] the only task');
    const answer = outputLogs.map((name) => readFileSync(join(project, '.ralph', 'logs', name), 'utf8')).join('');
    expect(answer).toContain('nothing is left to do');
  });
});
