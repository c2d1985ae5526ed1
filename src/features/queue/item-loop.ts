import { join } from 'node:path';
import type { LoopEnd } from '../../core/queue/item-outcome.js';
import type { QueueItem } from '../../core/queue/queue-item.js';
import { isRecord } from '../../core/guards.js';
import { start } from '../../infra/process.js';
import { readDocument } from '../../state/document-store.js';
import { STATUS } from '../../state/documents/status.js';
import { writeFileAtomic } from '../../state/json-file.js';
import { ralphPaths } from '../../state/paths.js';
import { ralphBinPath } from '../agent-tools/test/run-process.js';
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { ExitCode, RalphError } from '../../errors.js';

/**
 * One item's loop: `ralph run` of this very installation, as a child process
 * in the item's worktree, with its own `.ralph/`. It is started through the
 * process layer (its own group, SIGTERM then SIGKILL, whatever it left behind
 * ended with it), so stopping it — Ctrl+C, the shared budget — ends its agent
 * too, and the loop gets to save its state first.
 */

/** Inside the worktree's `.ralph/`, which is Ralph's state and never committed. */
export const ITEM_TASK_FILE = '.ralph/queue-task.md';
export const ITEM_REPORT_FILE = '.ralph/queue-report.json';

/** Time the loop gets to stop its agent and save its state before SIGKILL. */
const STOP_GRACE_MS = 10_000;

export interface ItemLoopInput {
  item: QueueItem;
  /** The worktree. */
  dir: string;
  /** Loop flags of `ralph queue run`, forwarded as typed. */
  loopArgs: readonly string[];
  /** What is left of the shared --max-cost, when there is one. */
  maxCostUsd?: number;
  /** A follow-up round's task (the item's task and what CI and reviewers found), instead of the item's own. */
  taskText?: string;
  env: NodeJS.ProcessEnv;
  /** Aborting stops the loop (SIGTERM to its process group). */
  signal: AbortSignal;
  onOutput(line: string): void;
  onSpawn?(pid: number): void;
}

/** `ralph run` arguments for the item: the task line as typed, or its text through a file (issue text is never parsed as task syntax). */
export function itemRunArgs(item: QueueItem, loopArgs: readonly string[], maxCostUsd: number | undefined, fromFile = false): string[] {
  // A task item's line still names the task and its verify options when its text comes from the file.
  const task = item.source === 'task' ? [item.spec, ...(fromFile ? ['--task-file', ITEM_TASK_FILE] : [])] : ['--task-file', ITEM_TASK_FILE, item.id];
  const verify = item.source !== 'task' && item.verify !== undefined && !loopArgs.includes('--verify') ? ['--verify', item.verify] : [];
  const cost = maxCostUsd !== undefined ? ['--max-cost', maxCostUsd.toFixed(4)] : [];
  return ['run', ...task, ...verify, ...loopArgs, ...cost, '--report', ITEM_REPORT_FILE];
}

function lineSplitter(onLine: (line: string) => void): { push(chunk: string): void; flush(): void } {
  let rest = '';
  return {
    push(chunk) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) onLine(part);
    },
    flush() {
      if (rest !== '') onLine(rest);
      rest = '';
    },
  };
}

/** What the loop's report (or, without one, its status.json) says about how it ended. */
export function readLoopFacts(dir: string): Omit<LoopEnd, 'exitCode'> {
  try {
    const report: unknown = JSON.parse(readFileSync(join(dir, ITEM_REPORT_FILE), 'utf8'));
    if (isRecord(report) && typeof report['exit_reason'] === 'string') {
      return {
        exitReason: report['exit_reason'],
        ...(typeof report['iterations'] === 'number' ? { loops: report['iterations'] } : {}),
        ...(typeof report['cost_usd'] === 'number' ? { costUsd: report['cost_usd'] } : {}),
        ...(report['cost_estimated'] === true ? { costEstimated: true } : {}),
      };
    }
  } catch {
    // No report: the loop was killed before it could write one; status.json still tells what it spent.
  }
  const status = readDocument(ralphPaths(dir), STATUS);
  if (status.kind !== 'ok') return {};
  const s = status.value;
  return { exitReason: s.exit_reason, loops: s.loop_count, costUsd: s.totals.cost_usd, ...(s.totals.cost_estimated ? { costEstimated: true } : {}) };
}

export async function runItemLoop(input: ItemLoopInput): Promise<LoopEnd> {
  const { item, dir } = input;
  const fromFile = item.source !== 'task' || input.taskText !== undefined;
  if (fromFile) {
    // The worktree is the repository's content: a `.ralph` committed as a link must not lead the write elsewhere.
    const st = lstatSync(join(dir, '.ralph'), { throwIfNoEntry: false });
    if (st && !st.isDirectory()) {
      throw new RalphError(
        `${item.id}: .ralph in its worktree is not a folder (a symbolic link or a file in the repository); the task is not written through it.`,
        ExitCode.RuntimeError,
        'Remove .ralph from the repository (git rm .ralph), commit, and run the queue again.',
      );
    }
    if (!st) mkdirSync(join(dir, '.ralph'));
    writeFileAtomic(join(dir, ITEM_TASK_FILE), `${input.taskText ?? item.spec}\n`);
  }
  const out = lineSplitter(input.onOutput);
  const err = lineSplitter(input.onOutput);
  const outcome = await start(process.execPath, [ralphBinPath(), ...itemRunArgs(item, input.loopArgs, input.maxCostUsd, fromFile)], {
    cwd: dir,
    env: input.env,
    signal: input.signal,
    killGraceMs: STOP_GRACE_MS,
    role: `queue item ${item.id}`,
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => err.push(chunk),
    ...(input.onSpawn ? { onSpawn: input.onSpawn } : {}),
  });
  out.flush();
  err.flush();
  const end: LoopEnd = { ...readLoopFacts(dir), exitCode: outcome.exitCode };
  if (outcome.signal !== undefined) end.signal = outcome.signal;
  if (outcome.failure !== undefined) end.failure = outcome.failure;
  return end;
}
