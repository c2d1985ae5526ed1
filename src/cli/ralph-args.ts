import { Command, CommanderError, Option } from 'commander';
import type { ConfigField } from '../config/keys.js';
import type { FlagValues } from '../config/load-config.js';
import { UsageError } from '../errors.js';
import { createMcpSubcommand, createTestSubcommand, type TestCommandArgs } from './agent-tool-args.js';
import { helpFooter, LOOP_EXIT_CODES } from '../ui/help-footer.js';

/** Flags that set a configuration value (flag > env > .ralphrc > default). */
interface ConfigFlag {
  flags: string;
  field: ConfigField;
  description: string;
  /** Commander's attribute name when it differs from the flag's camelCase. */
  attribute?: string;
  repeatable?: boolean;
}

export const CONFIG_FLAGS: readonly ConfigFlag[] = [
  { flags: '-c, --calls <num>', field: 'maxCallsPerHour', description: 'agent calls allowed per hour (default 100)' },
  { flags: '-p, --prompt <file>', field: 'promptFile', description: 'prompt file (default .ralph/PROMPT.md)' },
  { flags: '-v, --verbose', field: 'verbose', description: 'detailed progress and debug logs' },
  { flags: '-l, --live', field: 'live', description: 'stream Claude output as it arrives' },
  { flags: '-t, --timeout <minutes>', field: 'timeoutMinutes', description: 'time limit of one agent call, 1-120 (default 15)' },
  { flags: '--output-format <format>', field: 'outputFormat', description: 'json or text (default json)' },
  { flags: '--allowed-tools <tools>', field: 'allowedTools', description: 'comma-separated tools Claude may use (any tool name Claude accepts)' },
  { flags: '--no-continue', field: 'sessionContinuity', attribute: 'continue', description: 'start a fresh Claude session every iteration' },
  { flags: '--session-expiry <hours>', field: 'sessionExpiryHours', description: 'start a new session once it is this old (default 24)' },
  { flags: '--model <model>', field: 'model', description: 'Claude model (--model)' },
  { flags: '--effort <level>', field: 'effort', description: 'Claude effort (--effort)' },
  { flags: '--auto-reset-circuit', field: 'cbAutoReset', description: 'close an open circuit at startup' },
  { flags: '-n, --notify', field: 'notify', description: 'desktop notifications for important events' },
  { flags: '-b, --backup', field: 'backup', description: 'keep a git checkpoint of every iteration' },
  { flags: '--show-tool-args', field: 'showToolArgs', description: 'show tool arguments in live output' },
  { flags: '--max-loops <n>', field: 'maxLoops', description: 'stop after N iterations (exit 7)' },
  { flags: '--max-cost <usd>', field: 'maxCostUsd', description: 'stop once the run cost this much (exit 7)' },
  { flags: '--max-runtime <minutes>', field: 'maxRuntimeMinutes', description: 'stop after this much time (exit 7)' },
  { flags: '--max-tokens <n>', field: 'maxTokensPerHour', description: 'input+output tokens allowed per hour' },
  { flags: '--pause <seconds>', field: 'pauseSeconds', description: 'pause between iterations (default 2, 0 allowed)' },
  { flags: '--backend <name>', field: 'backend', description: 'claude or mock (default claude)' },
  { flags: '--mock-script <file>', field: 'mockScript', description: 'scripted responses for the mock backend' },
  { flags: '--verify <command>', field: 'verifyCommand', description: 'shell command that must pass (e.g. "npm test")' },
  { flags: '--verify-timeout <seconds>', field: 'verifyTimeoutSeconds', description: 'time limit of one verify run (default 300)' },
  { flags: '--verify-max <n>', field: 'verifyMaxAttempts', description: 'failed verify attempts before escalation (default 5)' },
  { flags: '--verify-preset <name>', field: 'verifyPreset', description: 'fast (1, 30 s), full (5, 300 s), extended (10, 600 s)' },
  { flags: '--verify-cwd <dir>', field: 'verifyCwd', description: 'directory the verify command runs in' },
  { flags: '--verify-env <KEY=VALUE>', field: 'verifyEnv', repeatable: true, description: 'extra environment for the verify command (repeatable)' },
  { flags: '--agent-env <NAME>', field: 'agentEnv', repeatable: true, description: 'let the agent see this secret-looking variable (repeatable)' },
  { flags: '--checkpoint', field: 'checkpoint', description: 'git checkpoint before each iteration (default: on with --verify); an iteration that needs one does not start without it' },
  { flags: '--no-checkpoint', field: 'checkpoint', description: 'no git checkpoints (accepts running iterations that cannot be undone)' },
  { flags: '--rollback-on-fail', field: 'rollbackOnFail', description: 'restore the checkpoint when verification fails or the agent call fails after changing files' },
  { flags: '--on-verify-exhausted <action>', field: 'onVerifyExhausted', description: 'ask, retry, skip or abort (default ask on a terminal, else abort)' },
];

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
  | 'mcp';

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
  inspect: { format: 'json' | 'summary' | 'timeline'; events: string[]; topics: string[]; afterIteration?: number; beforeIteration?: number; payloadPattern?: string; limit: number };
  /** Set for `ralph run <task>`. */
  task?: string;
  /** `ralph run --allow-no-git`: run a task in a folder that is not a git repository. */
  allowNoGit?: boolean;
  /** `ralph demo --keep`. */
  keep?: boolean;
  /** Set for `ralph test <tool>`. */
  test?: TestCommandArgs;
}

export const RALPH_HELP_FOOTER = helpFooter(
  [
    ['ralph --verify "npm test"', 'loop until the plan is done and the tests pass'],
    ['ralph --live --max-loops 10', "stream Claude's output; stop after 10 iterations"],
    ['ralph --monitor', 'the loop, its output and a dashboard side by side in tmux'],
    ['ralph --status --json', 'the state of the loop, for scripts'],
  ],
  LOOP_EXIT_CODES,
);

/** The one-line task syntax of `ralph run`, key by key. */
export const TASK_SYNTAX_HELP = `
Task syntax (one quoted argument; parts separated by ::):
  [>>]TASK [:: verify:"COMMAND" [KEY:VALUE ...]] [:: "criterion"] [:: name] ...
  TASK               what to do: a name such as fix-auth, or free text
  verify:"COMMAND"   shell command that must pass; the keys after it, in the same part:
    max:N              failed verify attempts before escalation (1-100, default 5)
    timeout:SECONDS    time limit of one verify run (1-3600, default 300)
    checkpoint:true    git checkpoint before each iteration
    rollback:true      restore the checkpoint when verification fails
    loop:true          keep iterating until the command passes or max runs out;
                       without it the task gets one attempt and stops on a failure (exit 6)
    workingDir:DIR     directory the verify command runs in
    :fast :full :extended   presets: 1 attempt/30 s, 5/300 s, 10/600 s
  "text" or name     a quality criterion, passed to the agent as a requirement
Without verify:, the task runs like a plan: until the agent reports it done or a limit stops it.
`;

const RUN_HELP_FOOTER = helpFooter(
  [
    [`ralph run '>>fix-auth :: verify:"npm test" max:5 loop:true'`, 'iterate until npm test passes, at most 5 failed attempts'],
    [`ralph run 'add a --version flag :: verify:"npm test" :fast'`, 'one attempt with a 30 s test run'],
    [`ralph run '>>write-api :: verify:"npm test" loop:true :: "follows REST conventions"'`, 'with a requirement for the agent'],
    [`ralph run 'tidy the README' --max-loops 3`, 'no verify command: at most 3 iterations'],
  ],
  LOOP_EXIT_CODES,
);

const DEMO_HELP_FOOTER = helpFooter(
  [
    ['ralph demo', 'watch a scripted run in a temporary project'],
    ['ralph demo --keep', 'keep the project afterwards to look at .ralph/ and the git history'],
  ],
  // The demo runs a real loop and exits with its code.
  LOOP_EXIT_CODES,
);

function addConfigFlags(cmd: Command): void {
  for (const f of CONFIG_FLAGS) {
    const option = new Option(f.flags, f.description);
    if (f.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    cmd.addOption(option);
  }
}

function attributeName(flag: ConfigFlag): string {
  if (flag.attribute) return flag.attribute;
  const long = /--(?:no-)?([a-z0-9-]+)/.exec(flag.flags)?.[1] ?? '';
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Values of config flags the user actually typed (not commander defaults). */
function collectFlags(cmd: Command): FlagValues {
  const opts = cmd.opts<Record<string, unknown>>();
  const out: FlagValues = {};
  for (const f of CONFIG_FLAGS) {
    const name = attributeName(f);
    if (cmd.getOptionValueSource(name) !== 'cli') continue;
    const value = opts[name];
    if (typeof value === 'string' || typeof value === 'boolean') out[f.field] = value;
    else if (Array.isArray(value)) out[f.field] = value.map(String);
  }
  return out;
}

function integerFlag(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new UsageError(`invalid value for ${name}: "${value}"; expected a whole number`);
    return Number(value);
  };
}

/**
 * Builds the commander program for `ralph`; `parseRalphArgs` is what the
 * entry point and the tests call.
 */
export function createRalphProgram(version: string, onParsed: (args: RalphArgs) => void, write: { out(s: string): void; err(s: string): void }): Command {
  const program = new Command('ralph');
  program
    .description('Runs Claude Code headless in a loop on this project until the work is really done.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    // Errors are reported once, by runMain, with a hint; commander only prints help/version.
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => undefined })
    .addHelpText('after', RALPH_HELP_FOOTER)
    .allowExcessArguments(false)
    // Options after `run <task>` belong to `run` (it has the same loop options).
    .enablePositionalOptions();
  addConfigFlags(program);
  program
    .option('-s, --status', 'print the loop status (status.json) and exit')
    .option('--circuit-status', 'print the circuit breaker state and exit')
    .option('--reset-circuit', 'close the circuit breaker and reset the session')
    .option('--reset-session', 'forget the Claude session and completion evidence')
    .option('--dry-run', 'show what would run without calling Claude (stops after --max-loops or 3)')
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
    .option('--json', 'print one JSON document (read-only commands)')
    .action(() => onParsed(toArgs(program, undefined)));

  const run = new Command('run')
    .description(`run the loop on an ad-hoc task: ralph run '>>fix-auth :: verify:"npm test" max:5 timeout:120'`)
    .argument('<task>', 'task specification')
    .exitOverride()
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => undefined })
    .option('--dry-run', 'show what would run without calling Claude')
    .option('--allow-no-git', 'run in a folder that is not a git repository (no checkpoints, no rollback)')
    .addHelpText('after', `${TASK_SYNTAX_HELP}${RUN_HELP_FOOTER}`);
  addConfigFlags(run);
  run.action((task: string) => {
    const args = toArgs(run, task);
    const allowNoGit = run.opts()['allowNoGit'] === true;
    onParsed({ ...args, flags: { ...collectFlags(program), ...args.flags }, dryRun: args.dryRun || program.opts()['dryRun'] === true, ...(allowNoGit ? { allowNoGit } : {}) });
  });
  program.addCommand(run);

  const demo = new Command('demo')
    .description('watch a complete loop on a scripted agent in a temporary project (no API key needed)')
    .option('--keep', 'keep the demo project afterwards')
    .addHelpText('after', DEMO_HELP_FOOTER)
    .exitOverride()
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => undefined })
    .action(() => onParsed({ ...toArgs(demo, undefined), action: 'demo', keep: demo.opts()['keep'] === true }));
  program.addCommand(demo);
  program.addCommand(createTestSubcommand(write, (test) => onParsed({ ...toArgs(program, undefined), action: 'test', test })));
  program.addCommand(createMcpSubcommand(write, () => onParsed({ ...toArgs(program, undefined), action: 'mcp' })));
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
    flags: collectFlags(cmd),
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
  if (task !== undefined) args.task = task;
  return args;
}

/**
 * Parses argv. Returns undefined when commander already printed help or the
 * version; throws UsageError (exit 2) for bad flags.
 */
export async function parseRalphArgs(argv: readonly string[], version: string, write: { out(s: string): void; err(s: string): void }): Promise<RalphArgs | undefined> {
  let parsed: RalphArgs | undefined;
  const program = createRalphProgram(version, (a) => (parsed = a), write);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return undefined;
      throw new UsageError(error.message.replace(/^error: /, ''), 'Run ralph --help to see every option.');
    }
    throw error;
  }
  return parsed;
}
