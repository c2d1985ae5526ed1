import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RalphPaths } from './paths.js';

/**
 * Ralph's own files in a project that a sandboxed agent may read but never change: `.ralphrc`
 * (one line there turns the sandbox off for the next run, or names another verify command), the
 * prompt, Ralph's state and logs in `.ralph/`, and the run-time folder with its lock. The agent
 * keeps what its prompt tells it to edit: the fix plan, AGENT.md and the specs.
 *
 * Names missing when the run starts are listed too: the sandbox then holds them empty for each
 * call, so the agent cannot create them either (a `.ralph/.gate_action` saying "skip", a new
 * `.ralphrc`). Anything else the folder holds at the start (files of other tools, older state)
 * is protected as it is.
 */
export function ralphFilesForSandbox(paths: RalphPaths, promptPath: string): string[] {
  const editable = new Set([paths.fixPlan, paths.agent, paths.specs]);
  const known = [
    paths.ralphrc,
    promptPath,
    paths.logsDir,
    paths.status,
    paths.progress,
    paths.liveLog,
    paths.circuitState,
    paths.circuitHistory,
    paths.responseAnalysis,
    paths.exitSignals,
    paths.rateLimit,
    paths.callCount,
    paths.tokenCount,
    paths.lastReset,
    paths.claudeSession,
    paths.ralphSession,
    paths.ralphSessionHistory,
    paths.stopRequest,
    paths.gateState,
    paths.gateAction,
    paths.iterationHistory,
    paths.monitorExit,
    paths.queue,
    paths.runtimeDir,
  ];
  let present: string[] = [];
  try {
    present = readdirSync(paths.dir).map((name) => join(paths.dir, name));
  } catch {
    // No .ralph/ yet: only the known names.
  }
  return [...new Set([...known, ...present])].filter((path) => !editable.has(path));
}
