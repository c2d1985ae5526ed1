import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, cleanEnv } from './run-cli.js';
import { tempDir } from './temp-dir.js';

/**
 * Drives `ralph test <tool>` as a user's shell would (needs `npm run build`):
 * the input as JSON on stdin, the one JSON document on stdout parsed.
 */
export interface ToolRun {
  exitCode: number | undefined;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

/** A private home for the registry and the workspaces, removed after the test. */
export function toolsHome(): string {
  return tempDir('ralph-tools-home-');
}

export async function ralphTest(
  home: string,
  tool: string,
  input: Record<string, unknown> = {},
  extraArgs: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<ToolRun> {
  const r = await execa(process.execPath, [join(ROOT, 'bin', 'ralph.js'), 'test', tool, '--input', '-', ...extraArgs], {
    cwd: home,
    env: cleanEnv({ RALPH_TEST_TOOLS_HOME: home, ...env }),
    extendEnv: false,
    reject: false,
    input: JSON.stringify(input),
    timeout: 110_000,
  });
  const stdout = String(r.stdout);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    json = { unparsed: stdout };
  }
  return { exitCode: r.exitCode, json, stdout, stderr: String(r.stderr) };
}

/** Writes a session.jsonl with the given event names, one second apart, spread over iterations. */
export function writeSession(workspace: string, events: ReadonlyArray<string | { event: string; iteration?: number; data?: Record<string, unknown> }>): string {
  const path = join(workspace, '.ralph', 'logs', 'session.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  const lines = events.map((e, i) => {
    const item = typeof e === 'string' ? { event: e } : e;
    const data = { ...(item.data ?? {}), ...(item.iteration !== undefined ? { iteration: item.iteration } : {}) };
    return JSON.stringify({ ts: 1_767_000_000_000 + i * 1000, event: item.event, data });
  });
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
