import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { nextSequentialId, type UsedIds } from '../../core/queue/queue-ids.js';
import { DEFAULT_PRIORITY, type QueueItem } from '../../core/queue/queue-item.js';
import type { QueueDraft } from '../../core/queue/queue-ops.js';
import { parseTaskSpec } from '../../core/task-spec.js';
import { ExitCode, RalphError, UsageError } from '../../errors.js';
import { extractPrdTasks, type TaskPriority } from '../project/enable/prd-tasks.js';

/** The longest title kept for a task typed on the command line; its spec keeps every word. */
const TITLE_CHARS = 80;

function shortTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/**
 * `ralph queue add '>>fix-auth :: verify:"npm test"'`: one item whose spec is
 * the task line as typed, read by `ralph run`'s parser, so the loop that runs
 * it gets the same task, verify command and criteria as `ralph run` would.
 */
export function taskDraft(line: string, existing: readonly Pick<QueueItem, 'id'>[], priority: number | undefined, used: UsedIds = {}): QueueDraft {
  const parsed = parseTaskSpec(line);
  if (!parsed.ok) {
    const { message, index } = parsed.error;
    throw new UsageError(
      `cannot read the task: ${message}\n  ${line}\n  ${' '.repeat(Math.max(0, index))}^`,
      `Example: ralph queue add '>>fix-auth :: verify:"npm test" max:5 loop:true'`,
    );
  }
  const draft: QueueDraft = {
    id: nextSequentialId(existing, 't', used),
    source: 'task',
    title: shortTitle(parsed.spec.task),
    spec: line.trim(),
    priority: priority ?? DEFAULT_PRIORITY,
    depends_on: [],
  };
  if (parsed.spec.verify) draft.verify = parsed.spec.verify.command;
  return draft;
}

/** A PRD's keyword priorities on the P0–P9 scale: critical work first, optional work last. */
const PRD_PRIORITY: Record<TaskPriority, number> = { high: 2, medium: DEFAULT_PRIORITY, low: 7, optional: 9 };

export interface PrdDrafts {
  drafts: QueueDraft[];
  /** Ids of the items that already hold a task of this PRD (added again, the PRD adds only its new tasks). */
  alreadyQueued: string[];
}

/**
 * `ralph queue add --prd FILE`: one item per task of the document, found the
 * way ralph-enable finds them (checkboxes, else numbered and bulleted items).
 */
export function prdDrafts(file: string, projectDir: string, existing: readonly QueueItem[], priority: number | undefined, used: UsedIds = {}): PrdDrafts {
  const path = resolve(projectDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RalphError(
      `cannot read the PRD ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`,
      ExitCode.Usage,
      'Give the path of a Markdown or text file: ralph queue add --prd docs/prd.md',
    );
  }
  const tasks = extractPrdTasks(text, Number.MAX_SAFE_INTEGER);
  if (tasks.length === 0) {
    throw new RalphError(
      `${file} holds no tasks: no checkbox, numbered or bulleted items were found.`,
      ExitCode.Usage,
      'Write the tasks as a list (- [ ] task), or add them one by one with ralph queue add TASK.',
    );
  }
  const shown = relative(projectDir, path) || path;
  const ids: { id: string }[] = [...existing];
  const alreadyQueued: string[] = [];
  const fresh = tasks.filter((task) => {
    const queued = existing.find((item) => item.source === 'prd' && item.prd_file === shown && item.title === shortTitle(task.text));
    if (queued) alreadyQueued.push(queued.id);
    return !queued;
  });
  const drafts = fresh.map((task): QueueDraft => {
    const id = nextSequentialId(ids, 'p', used);
    ids.push({ id });
    return {
      id,
      source: 'prd',
      title: shortTitle(task.text),
      spec: `${task.text}\n\n(A task of the PRD ${shown}; read it for the context.)`,
      priority: priority ?? PRD_PRIORITY[task.priority],
      depends_on: [],
      prd_file: shown,
    };
  });
  return { drafts, alreadyQueued };
}
