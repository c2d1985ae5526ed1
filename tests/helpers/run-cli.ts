import { execa, type ResultPromise } from 'execa';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './temp-dir.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const FAKE_BIN = join(ROOT, 'tests', 'fixtures', 'bin');

export interface CliResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/**
 * A clean environment for a spawned command: nothing from the developer's
 * shell that Ralph reads (RALPH_*, CLAUDE_*, MAX_*, …) leaks in.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${FAKE_BIN}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: process.env['HOME'] ?? '/tmp',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    // tmux runs its panes through $SHELL, else the account's login shell, which for a system
    // account (nobody) is nologin: the panes would end at once.
    SHELL: '/bin/sh',
  };
  return { ...env, ...extra };
}

/** Runs one of the built commands (bin/<name>.js). Needs `npm run build` first. */
export function runCli(name: string, args: readonly string[], cwd: string, env: Record<string, string> = cleanEnv(), timeoutMs = 110_000): ResultPromise {
  return execa(process.execPath, [join(ROOT, 'bin', `${name}.js`), ...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
    forceKillAfterDelay: false,
  });
}

export async function ralph(args: readonly string[], cwd: string, env?: Record<string, string>, timeoutMs?: number): Promise<CliResult> {
  const r = await runCli('ralph', args, cwd, env, timeoutMs);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export interface FakeClaude {
  env: Record<string, string>;
  stateDir: string;
  calls(): Array<{ argv: string[]; stdin_closed: boolean; cwd: string; pid: number }>;
}

export interface FakeCall {
  fixture?: string;
  stdout?: string;
  stderr?: string;
  exit?: number;
  sleep_ms?: number;
  shell?: string;
  grandchild?: boolean;
  ignore_term?: boolean;
  /** sh commands the fake agent leaves running, holding its stdout and stderr. */
  background?: string;
  /** Printed before `shell` runs: the first events of a stream still under way. */
  stdout_first?: string;
}

/** Scenario + state dir for tests/fixtures/bin/claude. */
export function fakeClaude(calls: FakeCall[], options: { default?: FakeCall; version?: string; env?: Record<string, string> } = {}): FakeClaude {
  const dir = tempDir('fake-claude-');
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir);
  const scenario = join(dir, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({ calls, default: options.default, version: options.version }));
  return {
    stateDir,
    env: cleanEnv({ FAKE_CLAUDE_SCENARIO: scenario, FAKE_CLAUDE_STATE: stateDir, ...(options.env ?? {}) }),
    calls() {
      return readdirSync(stateDir)
        .filter((f) => /^call-\d+\.json$/.test(f))
        .sort((a, b) => Number(a.slice(5, -5)) - Number(b.slice(5, -5)))
        .map((f) => JSON.parse(readFileSync(join(stateDir, f), 'utf8')));
    },
  };
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function readJsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A RALPH_STATUS-carrying Claude result object as the CLI prints it. */
export function resultJson(text: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 10,
    num_turns: 1,
    result: text,
    session_id: 'sess-fake-1',
    total_cost_usd: 0.01,
    usage: { input_tokens: 100, output_tokens: 50 },
    permission_denials: [],
    ...extra,
  });
}

export function statusBlock(fields: Record<string, string>): string {
  return ['---RALPH_STATUS---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---END_RALPH_STATUS---'].join('\n');
}
