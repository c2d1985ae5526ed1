import type { Command } from 'commander';
import { isValidId } from '../core/queue/queue-ids.js';
import { parsePriority } from '../core/queue/queue-priority.js';
import { UsageError } from '../errors.js';
import type { QueueAddSource } from '../features/queue/queue-add.js';
import type { FlagValues } from '../config/load-config.js';
import type { HelpRow } from '../ui/help-footer.js';
import { addConfigOptions, readConfigFlags } from './config-options.js';
import { addFollowOptions, readFollowArgs, type FollowArgs } from './follow-args.js';
import { createCommand, usageHint, type CommandIo } from './program.js';
import { TASK_SYNTAX_HELP } from './task-syntax-help.js';

/**
 * `ralph queue add|list|status|remove|clear`: the flags of the task queue,
 * parsed into one QueueArgs for queue-command.ts.
 */
export type QueueArgs =
  | { sub: 'add'; source: QueueAddSource; after: string[]; priority?: number; verify?: string; repo?: string }
  | { sub: 'list'; json: boolean }
  | { sub: 'status'; json: boolean }
  | { sub: 'remove'; id: string }
  | { sub: 'clear'; all: boolean }
  | { sub: 'run'; run: QueueRunArgs }
  | { sub: 'clean'; force: boolean };

/** `ralph queue run`: how many at once, where the work goes, and the loop flags for every item. */
export interface QueueRunArgs {
  parallel: number;
  merge: boolean;
  pr: boolean;
  repo?: string;
  commentProgress: boolean;
  autoClose: boolean;
  draftPr: boolean;
  /** --follow-checks and its settings. */
  follow?: FollowArgs;
  /** Loop flags typed on `queue run` (--backend, --max-loops, --verify…); --max-cost is the run's shared budget. */
  flags: FlagValues;
}

/** More loops at once than this is a typo, not a plan: each is an agent with its own bill. */
export const MAX_PARALLEL = 16;

const QUEUE_EXIT_CODES: readonly HelpRow[] = [
  ['0', 'done'],
  ['1', 'runtime error: no GitHub token, GitHub refused or could not be reached, the queue file is damaged, the item is running'],
  ['2', 'usage error: bad task syntax, unknown id, bad --repo or no repository, a dependency cycle'],
];

const ADD_NOTES = `
Sources (exactly one):
  TASK                       one item, in the task syntax of ralph run (below)
  --prd FILE                 one item per task of a PRD (checkboxes, else list items)
  --github-issues 12,15      these GitHub issues
  --label L [--milestone M] [--assignee A]   the open issues that match
GitHub: the token comes from GITHUB_TOKEN, GH_TOKEN or \`gh auth token\`; the
repository from --repo or the origin remote; the API from GITHUB_API_URL.
Priorities: P0 (first) to P9; from labels like P1 or "priority: P1"; default P5.
${TASK_SYNTAX_HELP}`;

const list = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== ''),
];

function issueNumbers(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((part) => part !== '');
  const numbers = parts.map((part) => (/^#?\d+$/.test(part) ? Number(part.replace('#', '')) : Number.NaN));
  if (parts.length === 0 || numbers.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(
      `invalid value for --github-issues: "${text}"; expected issue numbers separated by commas, such as 12,15`,
      usageHint('ralph queue add'),
    );
  }
  return [...new Set(numbers)];
}

function addSource(task: string | undefined, o: Record<string, unknown>): QueueAddSource {
  const labels = (o['label'] as string[] | undefined) ?? [];
  const filter = labels.length > 0 || o['milestone'] !== undefined || o['assignee'] !== undefined;
  const given = [
    task !== undefined && 'TASK',
    typeof o['prd'] === 'string' && '--prd',
    typeof o['githubIssues'] === 'string' && '--github-issues',
    filter && '--label/--milestone/--assignee',
  ].filter((name): name is string => typeof name === 'string');
  if (given.length === 0) throw new UsageError('nothing to add: give a TASK, --prd FILE, --github-issues 12,15 or --label L.', usageHint('ralph queue add'));
  if (given.length > 1) throw new UsageError(`choose one source: ${given.join(', ')} were given together.`, usageHint('ralph queue add'));
  if (task !== undefined) return { kind: 'task', line: task };
  if (typeof o['prd'] === 'string') return { kind: 'prd', file: o['prd'] };
  if (typeof o['githubIssues'] === 'string') return { kind: 'issues', numbers: issueNumbers(o['githubIssues']) };
  return {
    kind: 'filter',
    labels,
    ...(typeof o['milestone'] === 'string' ? { milestone: o['milestone'] } : {}),
    ...(typeof o['assignee'] === 'string' ? { assignee: o['assignee'] } : {}),
  };
}

function readAdd(task: string | undefined, o: Record<string, unknown>): QueueArgs {
  const source = addSource(task, o);
  const after = (o['after'] as string[] | undefined) ?? [];
  const bad = after.find((id) => !isValidId(id));
  if (bad !== undefined) throw new UsageError(`invalid value for --after: "${bad}" is not a queue id (such as t1 or gh-12)`, usageHint('ralph queue add'));
  const args: QueueArgs & { sub: 'add' } = { sub: 'add', source, after };
  if (typeof o['priority'] === 'string') {
    const priority = parsePriority(o['priority']);
    if (priority === undefined)
      throw new UsageError(`invalid value for --priority: "${o['priority']}"; expected 0 to 9 (or P0 to P9)`, usageHint('ralph queue add'));
    args.priority = priority;
  }
  if (typeof o['verify'] === 'string') {
    if (source.kind === 'task')
      throw new UsageError('--verify goes with --prd and GitHub sources; a task names its own: TASK :: verify:"npm test"', usageHint('ralph queue add'));
    args.verify = o['verify'];
  }
  if (typeof o['repo'] === 'string') {
    if (source.kind === 'task' || source.kind === 'prd') throw new UsageError('--repo goes with --github-issues or --label.', usageHint('ralph queue add'));
    args.repo = o['repo'];
  }
  return args;
}

export function createQueueSubcommand(io: CommandIo, onParsed: (args: QueueArgs) => void): Command {
  const queue = createCommand('queue', io, {
    description: 'a queue of tasks, PRD tasks and GitHub issues for Ralph to work through (.ralph/queue.json)',
    examples: [
      [`ralph queue add '>>fix-auth :: verify:"npm test"'`, 'queue a task'],
      ['ralph queue add --label ralph --repo octocat/hello-world', "queue a label's open issues"],
      ['ralph queue status', 'counts per state, what runs, what is next'],
      ['ralph queue list --json', 'every item, for scripts'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  });

  const add = createCommand('add', io, {
    description: 'add a task, the tasks of a PRD, or GitHub issues to the queue',
    notes: ADD_NOTES,
    examples: [
      [`ralph queue add '>>fix-auth :: verify:"npm test" max:5 loop:true'`, 'a task with its verify command'],
      ['ralph queue add --prd docs/prd.md --verify "npm test"', 'one item per task of the PRD'],
      ['ralph queue add --github-issues 12,15 --after t1', 'two issues, started after t1 completed'],
      ['ralph queue add --label ralph --milestone v2 --repo octocat/hello-world', 'the open issues with that label and milestone'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .argument('[task]', 'a task in the syntax of ralph run')
    .option('--prd <file>', 'add one item per task of this PRD')
    .option('--github-issues <numbers>', 'add these GitHub issues (12,15)')
    .option('--label <label>', 'add the open issues with this label (repeatable)', list)
    .option('--milestone <milestone>', 'only issues of this milestone (title or number)')
    .option('--assignee <login>', 'only issues assigned to this login')
    .option('--repo <owner/name>', 'GitHub repository (default: the origin remote)')
    .option('--after <id>', 'start the new items only after this item completed (repeatable)', list)
    .option('--priority <n>', 'priority 0 (first) to 9 (default: from labels, else 5)')
    .option('--verify <command>', 'verify command for PRD and GitHub items')
    .action((task: string | undefined) => onParsed(readAdd(task, add.opts<Record<string, unknown>>())));

  const listCmd = createCommand('list', io, {
    description: 'list every item with its priority, state and dependencies',
    examples: [
      ['ralph queue list', 'a table for people'],
      [`ralph queue list --json | jq '.items[] | select(.state == "failed")'`, 'the failed items, for scripts'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .option('--json', 'print the queue as one JSON document')
    .action(() => onParsed({ sub: 'list', json: listCmd.opts()['json'] === true }));

  const status = createCommand('status', io, {
    description: 'counts per state, the running items and what starts next',
    examples: [
      ['ralph queue status', 'a summary for people'],
      ['ralph queue status --json', 'the same as one JSON document'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .option('--json', 'print one JSON document')
    .action(() => onParsed({ sub: 'status', json: status.opts()['json'] === true }));

  const remove = createCommand('remove', io, {
    description: 'remove one item (a running item is refused)',
    examples: [
      ['ralph queue remove gh-12', 'take issue #12 out of the queue'],
      ['ralph queue remove t3', 'take the third task typed out'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .argument('<id>', 'the item id (see ralph queue list)')
    .action((id: string) => onParsed({ sub: 'remove', id }));

  const clear = createCommand('clear', io, {
    description: 'remove the finished items (completed, failed, skipped); --all also the pending ones',
    examples: [
      ['ralph queue clear', 'forget what is done'],
      ['ralph queue clear --all', 'empty the queue (running items stay)'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .option('--all', 'also remove pending items (never running ones)')
    .action(() => onParsed({ sub: 'clear', all: clear.opts()['all'] === true }));

  const run = createCommand('run', io, {
    description: 'run the ready items, each as a loop in its own git worktree and branch (ralph/<id>); your tree is not touched',
    notes: RUN_NOTES,
    examples: [
      ['ralph queue run --parallel 3 --backend codex --max-loops 10', 'three loops at once'],
      ['ralph queue run --parallel 2 --merge', 'merge completed branches into the current branch at the end'],
      ['ralph queue run --pr --comment-progress --follow-checks', 'a pull request per completed issue, fixed until its checks pass'],
      ['ralph queue run --parallel 3 --max-cost 5', 'at most $5 across all loops'],
    ],
    exitCodes: QUEUE_RUN_EXIT_CODES,
  })
    .option('--parallel <n>', `loops at once, 1-${MAX_PARALLEL} (default 1)`)
    .option('--merge', 'at the end, merge completed branches into the starting branch (git merge --no-ff; a conflict is aborted)')
    .option('--pr', 'push each completed branch and open a pull request (Closes #N for issues)')
    .option('--draft-pr', 'with --pr: open draft pull requests')
    .option('--comment-progress', 'comment on the issue of a GitHub item when its loop starts and ends')
    .option('--auto-close', 'with --pr: close the issue once its pull request is open')
    .option('--repo <owner/name>', 'GitHub repository for --pr and comments (default: the origin remote)');
  addFollowOptions(run);
  addConfigOptions(run);
  run.action(() => onParsed({ sub: 'run', run: readRun(run.opts<Record<string, unknown>>(), readConfigFlags(run)) }));

  const clean = createCommand('clean', io, {
    description: 'remove the worktrees of items that are not running (branches stay) and prune the list git keeps of them',
    examples: [
      ['ralph queue clean', 'tidy .ralph/worktrees/ after an interrupted run'],
      ['ralph queue clean --force', 'also remove worktrees that hold ignored files (.env, logs/), deleting those files'],
      ['ralph queue clean && git branch --list "ralph/*"', 'the branches stay, with the work of every item'],
    ],
    exitCodes: QUEUE_EXIT_CODES,
  })
    .option('--force', 'also remove a worktree that holds ignored files (they are listed first; without --force it is kept)')
    .action(() => onParsed({ sub: 'clean', force: clean.opts()['force'] === true }));

  for (const sub of [add, listCmd, status, remove, clear, run, clean]) queue.addCommand(sub);
  return queue;
}

const RUN_NOTES = `
Every item runs as \`ralph run\` in .ralph/worktrees/<id> on the branch ralph/<id>,
made from the commit you are on; its work is committed there when its loop ends.
Loop flags (--backend, --max-loops, --verify, --calls, …) apply to every loop;
--max-cost and the hourly call limit are shared by all of them.
Ctrl+C stops every loop and keeps worktrees and branches; run again to resume.
--follow-checks: an item is completed once its pull request's checks pass; a
failing check runs its loop again with the check's output (never by deleting or
skipping tests), pushed to the same pull request. Pushes made with the Actions
GITHUB_TOKEN start no workflows: use a personal access or GitHub App token.`;

const QUEUE_RUN_EXIT_CODES: readonly HelpRow[] = [
  ['0', 'every item that ran completed (and was merged or got its pull request)'],
  ['1', "an item failed (or its pull request's checks did), a merge conflicted, a push or pull request failed, the queue file is damaged"],
  ['2', 'usage error: bad --parallel or --follow-* value, --merge with --pr, a dependency cycle, no first commit'],
  ['7', 'the shared --max-cost was spent; unfinished items went back to pending'],
  ['130', 'interrupted (Ctrl+C): running items went back to pending'],
];

function readRun(o: Record<string, unknown>, flags: FlagValues): QueueRunArgs {
  const usage = usageHint('ralph queue run');
  let parallel = 1;
  if (o['parallel'] !== undefined) {
    const text = String(o['parallel']);
    parallel = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(parallel >= 1 && parallel <= MAX_PARALLEL)) throw new UsageError(`invalid value for --parallel: "${text}"; expected 1 to ${MAX_PARALLEL}`, usage);
  }
  const merge = o['merge'] === true;
  const pr = o['pr'] === true;
  if (merge && pr) throw new UsageError('choose one of --merge and --pr: merged work has no branch left to open a pull request for.', usage);
  for (const name of ['draftPr', 'autoClose'] as const) {
    if (o[name] === true && !pr) throw new UsageError(`--${name === 'draftPr' ? 'draft-pr' : 'auto-close'} goes with --pr.`, usage);
  }
  const args: QueueRunArgs = {
    parallel,
    merge,
    pr,
    commentProgress: o['commentProgress'] === true,
    autoClose: o['autoClose'] === true,
    draftPr: o['draftPr'] === true,
    flags,
  };
  if (typeof o['repo'] === 'string') {
    if (!pr && !args.commentProgress) throw new UsageError('--repo goes with --pr or --comment-progress.', usage);
    args.repo = o['repo'];
  }
  const follow = readFollowArgs(o, pr, usage);
  if (follow) args.follow = follow;
  return args;
}
