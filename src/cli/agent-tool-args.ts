import { type Command, Option } from 'commander';
import { backendNamesFirst } from '../backends/registry.js';
import { UsageError } from '../errors.js';
import { createCommand, type CommandIo } from './program.js';

/**
 * Argument parsing for the agent-facing commands: `ralph test <tool>` (the
 * test_* tools, verify and ralph_status, JSON in and out) and `ralph mcp` (the same tools over
 * MCP stdio). Kept apart from the loop's flags in ralph-args.ts.
 */
export interface TestCommandArgs {
  tool: string;
  /** `--input FILE`, or `-` for standard input. */
  input?: string;
  strict: boolean;
  /** Tool parameters given as flags (snake_case names); they override --input. */
  params: Record<string, unknown>;
}

interface ParamFlag {
  flags: string;
  param: string;
  description: string;
  kind: 'string' | 'integer' | 'boolean';
  /** Still accepted, not listed: an older name of a listed flag. */
  hidden?: boolean;
}

/** Flags for the parameters people type most; anything else goes through --input. */
const PARAM_FLAGS: readonly ParamFlag[] = [
  { flags: '--workspace-id <id>', param: 'workspace_id', kind: 'string', description: 'workspace_id (every test tool)' },
  { flags: '--plan <text>', param: 'scratchpad', kind: 'string', description: 'test_setup: initial .ralph/fix_plan.md' },
  { flags: '--scratchpad <text>', param: 'scratchpad', kind: 'string', description: 'same as --plan', hidden: true },
  { flags: '--task <text>', param: 'task', kind: 'string', description: 'test_run: the task' },
  {
    flags: '--backend <name>',
    param: 'backend',
    kind: 'string',
    description: `test_run: ${backendNamesFirst('mock')
      .map((name, i) => (i === 0 ? `${name} (default)` : name))
      .join(' or ')}`,
  },
  { flags: '--max-iterations <n>', param: 'max_iterations', kind: 'integer', description: 'test_run: iteration limit (default 5)' },
  { flags: '--max-runtime-secs <n>', param: 'max_runtime_secs', kind: 'integer', description: 'test_run: time limit in seconds (default 300)' },
  { flags: '--format <format>', param: 'format', kind: 'string', description: 'test_inspect: json, summary or timeline' },
  { flags: '--limit <n>', param: 'limit', kind: 'integer', description: 'test_inspect: most records (default 100)' },
  { flags: '--preserve-session', param: 'preserve_session', kind: 'boolean', description: 'test_cleanup: keep session.jsonl' },
  { flags: '--baseline <id>', param: 'baseline', kind: 'string', description: 'test_diff: "initial" or a snapshot id' },
  { flags: '--compare-to <id>', param: 'compare_to', kind: 'string', description: 'test_diff: a snapshot id or "current"' },
  { flags: '--command <cmd>', param: 'command', kind: 'string', description: 'verify: the shell command' },
  { flags: '--gate-id <id>', param: 'gate_id', kind: 'string', description: 'verify: the gate whose attempts are counted' },
  { flags: '--gate-action <action>', param: 'gate_action', kind: 'string', description: 'verify: retry, skip or abort' },
  { flags: '--max <n>', param: 'max', kind: 'integer', description: 'verify: attempts before escalation' },
  { flags: '--timeout <secs>', param: 'timeout', kind: 'integer', description: 'verify: seconds before the command is killed' },
  { flags: '--working-dir <dir>', param: 'working_dir', kind: 'string', description: 'verify: directory to run in' },
  { flags: '--checkpoint', param: 'checkpoint', kind: 'boolean', description: 'verify: git checkpoint at the start of a cycle' },
  { flags: '--rollback', param: 'rollback', kind: 'boolean', description: 'verify: restore the checkpoint on failure' },
  { flags: '--project-dir <dir>', param: 'project_dir', kind: 'string', description: 'ralph_status: project directory' },
];

const TOOL_NOTES = `
Tools: test_setup, test_mock_backend, test_run, test_assert, test_inspect,
test_snapshot, test_diff, test_cleanup, verify, ralph_status.
The test_ prefix may be left out: ralph test setup --workspace-id demo

Input is one JSON object (--input FILE, or --input - for stdin); flags set
single parameters on top of it. Output is exactly one JSON document on
stdout. Workspaces live under the system temp dir; RALPH_TEST_TOOLS_HOME
moves them and the registry elsewhere.
`;

function attribute(flags: string): string {
  const long = /--([a-z0-9-]+)/.exec(flags)?.[1] ?? '';
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

function toParam(flag: ParamFlag, value: unknown): unknown {
  if (flag.kind !== 'integer') return value;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw new UsageError(`invalid value for ${flag.flags.split(' ')[0] ?? flag.flags}: "${text}"; expected a whole number`);
  return Number(text);
}

export function createTestSubcommand(io: CommandIo, onParsed: (args: TestCommandArgs) => void): Command {
  const cmd = createCommand('test', io, {
    description: 'run one agent-facing tool (test tools, verify, ralph_status) with JSON in and out',
    notes: TOOL_NOTES,
    examples: [
      ['ralph test setup --workspace-id demo', 'a throw-away Ralph project to run the loop in'],
      [
        `echo '{"mock_responses":[{"output":"Wrote README.md. EXIT_SIGNAL: true","files":{"README.md":"# Demo"},"check_tasks":9}]}' | ralph test run --workspace-id demo --task "add a README" --input -`,
        "run the loop there on the mock backend, the agent's answers scripted",
      ],
      [
        `echo '{"workspace_id":"demo","assertions":[{"type":"file_exists","path":"README.md"}]}' | ralph test assert --input - --strict`,
        'check the outcome; exit 1 if any assertion failed',
      ],
      ['ralph test verify --command "npm test"', 'run a verify command the way the loop does'],
    ],
    exitCodes: [
      ['0', 'the tool did its job (a failing assertion is a result, not an error)'],
      ['1', 'the tool could not do its job ({"error": {...}} on stdout); with --strict, a failed assertion'],
      ['2', 'bad input'],
    ],
  })
    .argument('<tool>', 'tool name, e.g. test_setup or setup')
    .option('--input <file>', 'JSON object with the tool parameters ("-" reads stdin)')
    .option('--json', 'print JSON (always the case; accepted for symmetry with other commands)')
    .option('--strict', 'test_assert: exit 1 when any assertion failed');
  for (const f of PARAM_FLAGS) {
    const option = new Option(f.flags, f.description);
    cmd.addOption(f.hidden ? option.hideHelp() : option);
  }
  cmd.action((tool: string) => {
    const opts = cmd.opts<Record<string, unknown>>();
    const params: Record<string, unknown> = {};
    for (const f of PARAM_FLAGS) {
      const value = opts[attribute(f.flags)];
      if (value !== undefined) params[f.param] = toParam(f, value);
    }
    const args: TestCommandArgs = { tool, strict: opts['strict'] === true, params };
    if (typeof opts['input'] === 'string') args.input = opts['input'];
    onParsed(args);
  });
  return cmd;
}

export function createMcpSubcommand(io: CommandIo, onParsed: () => void): Command {
  return createCommand('mcp', io, {
    description: 'serve the test tools, verify and ralph_status over MCP on stdio (claude mcp add ralph -- ralph mcp)',
    examples: [
      ['claude mcp add ralph -- ralph mcp', 'give Claude Code the tools'],
      [`echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | ralph mcp`, 'list the tools a client is offered'],
    ],
    exitCodes: [
      ['0', 'the client closed the connection'],
      ['1', 'the server could not run'],
      ['2', 'usage error'],
    ],
  }).action(() => onParsed());
}
