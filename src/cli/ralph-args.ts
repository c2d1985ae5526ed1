import { type Command, Option } from 'commander';
import type { FlagValues } from '../config/load-config.js';
import { UsageError } from '../errors.js';
import { LOOP_EXIT_CODES, type HelpRow } from '../ui/help-footer.js';
import { createMcpSubcommand, createTestSubcommand, type TestCommandArgs } from './agent-tool-args.js';
import { addConfigOptions, readConfigFlags } from './config-options.js';
import { createCommand, parseArgv, type CommandIo } from './program.js';
import { createQueueSubcommand, type QueueArgs } from './queue-args.js';
import { TASK_SYNTAX_HELP } from './task-syntax-help.js';

export type RalphAction =
  | 'loop'
  | 'status'
  | 'circuit-status'
  | 'reset-circuit'
  | 'reset-session'
  | 'config'
  | 'stop'
  | 'gate-action'
  | 'checkpoints'
  | 'restore'
  | 'rollback'
  | 'inspect'
  | 'monitor'
  | 'demo'
  | 'test'
  | 'mcp'
  | 'queue'
  | 'dashboard';

export interface RalphArgs {
  action: RalphAction;
  flags: FlagValues;
  json: boolean;
  dryRun: boolean;
  gateAction?: 'retry' | 'skip' | 'abort';
  restoreId?: string;
  rollbackTarget?: string;
  /** --force: restore even when a branch moves over newer commits. */
  force?: boolean;
  /** `ralph --checkpoints --prune`. */
  prune?: boolean;
  inspect: {
    format: 'json' | 'summary' | 'timeline';
    events: string[];
    topics: string[];
    afterIteration?: number;
    beforeIteration?: number;
    payloadPattern?: string;
    limit: number;
    /** `--receipt N|last`: show one iteration's receipt instead of the session recording. */
    receipt?: number | 'last';
  };
  /** Set for `ralph run <task>`. */
  task?: string;
  /** `ralph run --allow-no-git`: run a task in a folder that is not a git repository. */
  allowNoGit?: boolean;
  /** --accept-config-change: run with a .ralphrc whose guarded settings changed since the last run. */
  acceptConfigChange?: boolean;
  /** `ralph demo --keep`. */
  keep?: boolean;
  /** Set for `ralph test <tool>`. */
  test?: TestCommandArgs;
  /** Set for `ralph queue <subcommand>`. */
  queue?: QueueArgs;
  /** `--report FILE`: the run's JSON report, written when the loop ends. */
  report?: string;
  /** `--events [FILE]`: the loop's events as NDJSON, to FILE or (`-`) to stdout. */
  events?: string;
  /** `ralph run --task-file FILE`: the task's text comes from FILE (`ralph queue run` hands issues over this way). */
  taskFile?: string;
  /** Set for `ralph dashboard`. */
  dashboard?: DashboardArgs;
  /** --fresh: start a new run even when the last one crashed (no resume). */
  fresh?: boolean;
}

export interface DashboardArgs {
  host: string;
  /** 0: any free port. */
  port: number;
  open: boolean;
  allowRemote: boolean;
}

const DASHBOARD_EXAMPLES: readonly HelpRow[] = [
  ['ralph dashboard', 'serve the page on 127.0.0.1 and open it in the browser'],
  ['ralph dashboard --port 8123 --no-open', 'a fixed port; print the address only'],
  ['ralph dashboard --host 0.0.0.0 --allow-remote', 'reachable from other machines (with the printed token)'],
];

const DASHBOARD_EXIT_CODES: readonly HelpRow[] = [
  ['0', 'never: the server runs until it is stopped'],
  ['1', 'not a Ralph project, the port is in use, or the page is missing'],
  ['2', 'usage error (a bad --port, a --host other than loopback without --allow-remote)'],
  ['130/143', 'stopped by Ctrl+C / SIGTERM (the normal way to end it)'],
];

function portFlag(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`invalid value for --port: "${value}"; expected a port number from 0 to 65535 (0: any free port)`);
  return Number(value);
}

const RALPH_EXAMPLES: readonly HelpRow[] = [
  ['ralph --verify "npm test"', 'loop until the plan is done and the tests pass'],
  ['ralph --live --max-loops 10', "stream the agent's output; stop after 10 iterations"],
  ['ralph --monitor', 'the loop, its output and a dashboard side by side in tmux'],
  ['ralph --status --json', 'the state of the loop, for scripts'],
];

const RUN_EXAMPLES: readonly HelpRow[] = [
  [`ralph run '>>fix-auth :: verify:"npm test" max:5 loop:true'`, 'iterate until npm test passes, at most 5 failed attempts'],
  [`ralph run 'add a --version flag :: verify:"npm test" :fast'`, 'one attempt with a 30 s test run'],
  [`ralph run '>>write-api :: verify:"npm test" loop:true :: "follows REST conventions"'`, 'with a requirement for the agent'],
  [`ralph run 'tidy the README' --max-loops 3`, 'no verify command: at most 3 iterations'],
];

const DEMO_EXAMPLES: readonly HelpRow[] = [
  ['ralph demo', 'watch a scripted run in a temporary project'],
  ['ralph demo --keep', 'keep the project afterwards to look at .ralph/ and the git history'],
];

function integerFlag(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new UsageError(`invalid value for ${name}: "${value}"; expected a whole number`);
    return Number(value);
  };
}

function receiptFlag(value: string): number | 'last' {
  if (value === 'last') return 'last';
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`invalid value for --receipt: "${value}"; expected a loop number (1, 2, …) or last`);
  return Number(value);
}

/**
 * Builds the commander program for `ralph`; `parseRalphArgs` is what the
 * entry point and the tests call.
 */
export function createRalphProgram(version: string, onParsed: (args: RalphArgs) => void, io: CommandIo): Command {
  const program = createCommand('ralph', io, {
    description: 'Runs a coding agent (Claude Code by default; --backend chooses) headless in a loop on this project until the work is really done.',
    version,
    examples: RALPH_EXAMPLES,
    exitCodes: LOOP_EXIT_CODES,
  })
    // Options after `run <task>` belong to `run` (it has the same loop options).
    .enablePositionalOptions();
  addConfigOptions(program);
  program
    .option('-s, --status', 'print the loop status (status.json) and exit')
    .option('--circuit-status', 'print the circuit breaker state and exit')
    .option('--reset-circuit', 'close the circuit breaker and reset the session')
    .option('--reset-session', 'forget the agent session and completion evidence')
    .option('--dry-run', 'show what would run without calling the agent (stops after --max-loops or 3)')
    .option('--accept-config-change', 'run with a .ralphrc whose sandbox, verify, tool or command settings changed since the last run')
    .option('--config', 'print every effective setting with its source and exit')
    .option('--stop', 'ask the loop running in this project to stop after its current step')
    .addOption(new Option('--gate-action <action>', 'answer a paused verify gate').choices(['retry', 'skip', 'abort']))
    .option('--checkpoints', 'list git checkpoints and exit')
    .option('--prune', 'with --checkpoints: delete all but the newest CHECKPOINT_KEEP checkpoints')
    .option('--restore <id>', 'restore a checkpoint (the present state is checkpointed first)')
    .option('--rollback [id]', 'like --checkpoints without an id, like --restore with one')
    .option('--force', 'with --restore: restore even when a branch moves back over newer commits (they stay reachable)')
    .option('-m, --monitor', 'run the loop in tmux with live output and the dashboard')
    .option('--inspect', 'read the session recording (.ralph/logs/session.jsonl)')
    .addOption(new Option('--format <format>', 'format for --inspect').choices(['json', 'summary', 'timeline']).default('summary'))
    .option('--event <name>', 'with --inspect: only this event type (repeatable)', (v: string, p: string[] = []) => [...p, v])
    .option('--topic <glob>', 'with --inspect: only events matching this glob (repeatable)', (v: string, p: string[] = []) => [...p, v])
    .option('--after-iteration <n>', 'with --inspect: events after iteration n', integerFlag('--after-iteration'))
    .option('--before-iteration <n>', 'with --inspect: events before iteration n', integerFlag('--before-iteration'))
    .option('--payload <regex>', 'with --inspect: events whose data matches the regex')
    .option('--limit <n>', 'with --inspect: at most n records (default 100)', integerFlag('--limit'))
    .option('--receipt <loop>', "with --inspect: show loop <loop>'s receipt (.ralph/logs/receipts.jsonl), or 'last'", receiptFlag)
    .option('--fresh', 'start a new run even when the last one crashed (default: resume it with its loop number, cost and tokens)')
    .option('--json', 'print one JSON document (read-only commands)')
    .option('--report <file>', 'when the loop ends, write a JSON report of the run to this file (exit reason and code, cost, iterations, branch)')
    .option('--events [file]', 'write every loop event as one JSON line, as it happens, to stdout (the terminal lines stay on stderr) or to a new FILE')
    .action(() => onParsed(toArgs(program, undefined)));

  const run = createCommand('run', io, {
    description: `run the loop on an ad-hoc task: ralph run '>>fix-auth :: verify:"npm test" max:5 timeout:120'`,
    notes: TASK_SYNTAX_HELP,
    examples: RUN_EXAMPLES,
    exitCodes: LOOP_EXIT_CODES,
  })
    .argument('<task>', 'task specification')
    .option('--dry-run', 'show what would run without calling the agent')
    .option('--allow-no-git', 'run in a folder that is not a git repository (no checkpoints, no rollback)')
    .option('--fresh', 'start a new run even when the last one crashed (default: resume it)')
    .option('--accept-config-change', 'run with a .ralphrc whose sandbox, verify, tool or command settings changed since the last run')
    .option('--report <file>', 'when the loop ends, write a JSON report of the run to this file')
    .option('--events [file]', 'write every loop event as one JSON line to stdout, or to a new FILE (put it after the task)')
    .option('--task-file <file>', "the task's text comes from this file; <task> still names it and its verify options");
  addConfigOptions(run);
  run.action((task: string) => {
    const args = toArgs(run, task);
    const allowNoGit = run.opts()['allowNoGit'] === true;
    const taskFile = run.opts()['taskFile'];
    const report = args.report ?? (typeof program.opts()['report'] === 'string' ? (program.opts()['report'] as string) : undefined);
    const events = args.events ?? eventsTarget(program.opts<Record<string, unknown>>()['events']);
    onParsed({
      ...args,
      flags: { ...readConfigFlags(program), ...args.flags },
      dryRun: args.dryRun || program.opts()['dryRun'] === true,
      ...(args.acceptConfigChange || program.opts()['acceptConfigChange'] === true ? { acceptConfigChange: true } : {}),
      ...(allowNoGit ? { allowNoGit } : {}),
      ...(args.fresh || program.opts()['fresh'] === true ? { fresh: true } : {}),
      ...(typeof taskFile === 'string' ? { taskFile } : {}),
      ...(report !== undefined ? { report } : {}),
      ...(events !== undefined ? { events } : {}),
    });
  });
  program.addCommand(run);

  const demo = createCommand('demo', io, {
    description: 'watch a complete loop on a scripted agent in a temporary project (no API key needed)',
    examples: DEMO_EXAMPLES,
    // The demo runs a real loop and exits with its code.
    exitCodes: LOOP_EXIT_CODES,
  })
    .option('--keep', 'keep the demo project afterwards')
    .action(() => onParsed({ ...toArgs(demo, undefined), action: 'demo', keep: demo.opts()['keep'] === true }));
  program.addCommand(demo);
  program.addCommand(createTestSubcommand(io, (test) => onParsed({ ...toArgs(program, undefined), action: 'test', test })));
  const dashboard = createCommand('dashboard', io, {
    description: "serve a live web page of this project's loop (and each loop of its queue) on 127.0.0.1; the first line printed is its address",
    examples: DASHBOARD_EXAMPLES,
    exitCodes: DASHBOARD_EXIT_CODES,
  })
    .option('--port <n>', 'port to listen on (default: any free port)', portFlag)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--allow-remote', 'with --host: allow an address other than loopback')
    .option('--no-open', 'do not open the page in the browser')
    .action(() => {
      const o = dashboard.opts<Record<string, unknown>>();
      onParsed({
        ...toArgs(program, undefined),
        action: 'dashboard',
        dashboard: {
          host: typeof o['host'] === 'string' ? o['host'] : '127.0.0.1',
          port: typeof o['port'] === 'number' ? o['port'] : 0,
          open: o['open'] !== false,
          allowRemote: o['allowRemote'] === true,
        },
      });
    });
  program.addCommand(dashboard);
  program.addCommand(createMcpSubcommand(io, () => onParsed({ ...toArgs(program, undefined), action: 'mcp' })));
  program.addCommand(createQueueSubcommand(io, (queue) => onParsed({ ...toArgs(program, undefined), action: 'queue', queue })));
  return program;
}

function toArgs(cmd: Command, task: string | undefined): RalphArgs {
  const o = cmd.opts<Record<string, unknown>>();
  const actions: [RalphAction, boolean][] = [
    ['status', o['status'] === true],
    ['circuit-status', o['circuitStatus'] === true],
    ['reset-circuit', o['resetCircuit'] === true],
    ['reset-session', o['resetSession'] === true],
    ['config', o['config'] === true],
    ['stop', o['stop'] === true],
    ['gate-action', typeof o['gateAction'] === 'string'],
    ['checkpoints', o['checkpoints'] === true],
    ['restore', typeof o['restore'] === 'string'],
    ['rollback', o['rollback'] !== undefined],
    ['inspect', o['inspect'] === true],
    ['monitor', o['monitor'] === true],
  ];
  const chosen = actions.filter(([, on]) => on).map(([a]) => a);
  if (chosen.length > 1) throw new UsageError(`choose one of ${chosen.map((a) => `--${a}`).join(', ')}`);
  const args: RalphArgs = {
    action: chosen[0] ?? 'loop',
    flags: readConfigFlags(cmd),
    json: o['json'] === true,
    dryRun: o['dryRun'] === true,
    inspect: {
      format: (o['format'] as 'json' | 'summary' | 'timeline' | undefined) ?? 'summary',
      events: (o['event'] as string[] | undefined) ?? [],
      topics: (o['topic'] as string[] | undefined) ?? [],
      limit: (o['limit'] as number | undefined) ?? 100,
    },
  };
  if (typeof o['afterIteration'] === 'number') args.inspect.afterIteration = o['afterIteration'];
  if (typeof o['beforeIteration'] === 'number') args.inspect.beforeIteration = o['beforeIteration'];
  if (typeof o['payload'] === 'string') args.inspect.payloadPattern = o['payload'];
  if (typeof o['gateAction'] === 'string') args.gateAction = o['gateAction'] as 'retry' | 'skip' | 'abort';
  if (typeof o['restore'] === 'string') args.restoreId = o['restore'];
  if (o['prune'] === true) {
    if (args.action !== 'checkpoints') throw new UsageError('--prune goes with --checkpoints (ralph --checkpoints --prune).');
    args.prune = true;
  }
  if (typeof o['rollback'] === 'string') args.rollbackTarget = o['rollback'];
  if (o['force'] === true) args.force = true;
  if (o['acceptConfigChange'] === true) args.acceptConfigChange = true;
  if (o['fresh'] === true) args.fresh = true;
  if (o['receipt'] !== undefined) {
    if (args.action !== 'inspect') throw new UsageError('--receipt goes with --inspect (ralph --inspect --receipt 3).');
    args.inspect.receipt = o['receipt'] as number | 'last';
  }
  if (task !== undefined) args.task = task;
  const events = eventsTarget(o['events']);
  if (events !== undefined) args.events = events;
  if (typeof o['report'] === 'string') {
    if (o['report'].trim() === '') throw new UsageError('--report needs a file name, such as --report ralph-report.json.');
    args.report = o['report'];
  }
  return args;
}

/** `--events` alone is stdout (`-`); with a value, that file. */
function eventsTarget(value: unknown): string | undefined {
  if (value === true) return '-';
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw new UsageError('--events needs a file name, such as --events events.ndjson, or no value at all for stdout.');
  return value;
}

/**
 * Parses argv. Returns undefined when commander already printed help or the
 * version; throws UsageError (exit 2) for bad flags.
 */
export async function parseRalphArgs(argv: readonly string[], version: string, io: CommandIo): Promise<RalphArgs | undefined> {
  let parsed: RalphArgs | undefined;
  const program = createRalphProgram(version, (a) => (parsed = a), io);
  if (!(await parseArgv(program, argv))) return undefined;
  return parsed;
}
