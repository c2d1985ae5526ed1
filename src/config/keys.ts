import { PROJECT_FILES } from '../core/project-layout.js';
import { AGENTS, BACKEND_NAMES, type Agent, type BackendName } from '../backends/agents.js';
import type { AgentSettings } from '../backends/agent-declaration.js';
import {
  argumentList,
  boolean,
  commandLine,
  commaList,
  decimal,
  envNames,
  envPairs,
  integer,
  oneOf,
  quotaThreshold,
  text,
  toolList,
  type ValueType,
} from './value-types.js';
import type { QuotaThreshold } from '../core/quota-windows.js';
import { domainList, pathList } from './sandbox-value-types.js';

/** The config field of one setting of every agent that declares it. */
type AgentField<S extends keyof AgentSettings, A = Agent> = A extends { settings: { [K in S]: { field: infer F extends string } } } ? F : never;

/**
 * Each agent CLI's own settings, made from the agents' declarations (agents.ts): a command and
 * extra arguments (lists), a model, an effort where the CLI has one, and a minimum version.
 */
export type AgentConfig = { [F in AgentField<'command'> | AgentField<'extraArgs'>]: string[] } & {
  [F in AgentField<'model'> | AgentField<'effort'> | AgentField<'minVersion'>]: string;
};

/** Every effective setting of a loop, after layering flag > environment > .ralphrc > default. */
export interface RalphConfig extends AgentConfig {
  maxCallsPerHour: number;
  maxTokensPerHour: number;
  timeoutMinutes: number;
  outputFormat: 'json' | 'text';
  allowedTools: string[];
  sessionContinuity: boolean;
  sessionExpiryHours: number;
  verbose: boolean;
  live: boolean;
  showToolArgs: boolean;
  notify: boolean;
  backup: boolean;
  promptFile: string;
  optionalSections: string[];
  cbNoProgressThreshold: number;
  cbSameErrorThreshold: number;
  cbPermissionDenialThreshold: number;
  cbFailureThreshold: number;
  cbCooldownMinutes: number;
  cbAutoReset: boolean;
  maxLoops: number;
  maxCostUsd: number;
  maxRuntimeMinutes: number;
  pauseSeconds: number;
  backend: BackendName;
  mockScript: string;
  verifyCommand: string;
  verifyPreset: '' | 'fast' | 'full' | 'extended';
  verifyTimeoutSeconds: number;
  verifyMaxAttempts: number;
  verifyCwd: string;
  verifyEnv: Record<string, string>;
  agentEnv: string[];
  checkpoint: 'auto' | 'on' | 'off';
  checkpointKeep: number;
  rollbackOnFail: boolean;
  onVerifyExhausted: 'ask' | 'retry' | 'skip' | 'abort';
  usageLimitWaitMinutes: number;
  apiRetryMax: number;
  apiRetryWaitSeconds: number;
  sandbox: boolean;
  sandboxAllowDomains: string[];
  sandboxAllowWrite: string[];
  sandboxVerify: boolean;
  verifyOutsideSandbox: boolean;
  /** Wait for a subscription window's reset once it reaches this (--park-at). */
  parkAt: QuotaThreshold | null;
  /** End the run once a subscription window reaches this (--stop-at, quota_reserved). */
  stopAt: QuotaThreshold | null;
  /** Tokens of the whole run (input, output, cache reads and writes); 0 = no limit. */
  maxTokens: number;
  review: boolean;
  reviewBackend: '' | BackendName;
  reviewModel: string;
  reviewMax: number;
}

export type ConfigField = keyof RalphConfig;

/**
 * A config key's flag, as `ralph --help` lists it. The help line says what the
 * flag does; the default is added from the key's own default when there is one
 * worth saying, so the two never disagree.
 */
export interface ConfigFlag {
  /** The long flag, as messages name it (`--calls`, or `--no-continue` for a switch that turns a default off). */
  name: string;
  /** One-letter alias, e.g. `-c`. */
  short?: string;
  /** The value's name in help, e.g. `<num>`; a flag without one is a switch. */
  value?: string;
  help: string;
  /** May be given more than once; the values add up. */
  repeatable?: boolean;
  /** A second switch that turns the setting off (`--no-checkpoint`). */
  off?: { name: string; help: string };
}

export interface KeySpec<F extends ConfigField> {
  /** The .ralphrc key (and main environment variable). */
  key: string;
  /** Other names accepted in .ralphrc and the environment (the original's internal names). */
  aliases?: readonly string[];
  /** The command-line flag of `ralph` and `ralph run`, if there is one. */
  flag?: ConfigFlag;
  type: ValueType<RalphConfig[F]>;
  default: RalphConfig[F];
  doc: string;
}

/**
 * What an unattended agent may run without asking. Safe by default: it reads,
 * edits, tests and commits locally, but cannot push, publish, pull, switch
 * branches, stash or delete; a project that needs more adds it to
 * ALLOWED_TOOLS in .ralphrc (the permission-denial screen says which rule).
 */
export const DEFAULT_ALLOWED_TOOLS = [
  'Write',
  'Read',
  'Edit',
  'Bash(git status)',
  'Bash(git status *)',
  'Bash(git diff)',
  'Bash(git diff *)',
  'Bash(git log)',
  'Bash(git log *)',
  'Bash(git show *)',
  'Bash(git add *)',
  'Bash(git commit *)',
  'Bash(npm test)',
  'Bash(npm test *)',
  'Bash(npm run *)',
  'Bash(npm ci)',
  'Bash(npm install)',
  'Bash(pytest)',
  'Bash(pytest *)',
];

const checkpointMode: ValueType<'auto' | 'on' | 'off'> = {
  expected: 'auto, true or false',
  parse(raw) {
    const v = raw.trim().toLowerCase();
    if (v === 'auto') return { ok: true, value: 'auto' };
    const b = boolean.parse(v);
    if (b.ok) return { ok: true, value: b.value ? 'on' : 'off' };
    return { ok: false, expected: this.expected };
  },
  format: (v) => (v === 'on' ? 'true' : v === 'off' ? 'false' : 'auto'),
};

const semver: ValueType<string> = {
  expected: 'a version such as 2.0.76',
  parse(raw) {
    const v = raw.trim();
    return /^\d+\.\d+\.\d+$/.test(v) ? { ok: true, value: v } : { ok: false, expected: this.expected };
  },
  format: (v) => v,
};

type AgentConfigField = keyof AgentConfig;

/**
 * What `--model` and `--effort` say in help. They parse into the fields named `model` and
 * `effort` (Claude Code's own, from when it was Ralph's only agent); routeAgentFlags then moves
 * the value to the selected backend's field.
 */
const AGENT_FLAGS: Partial<Record<keyof AgentSettings, (agents: string) => ConfigFlag>> = {
  model: (agents) => ({ name: '--model', value: '<model>', help: `model the selected agent runs, kept per backend (${agents})` }),
  effort: (agents) => ({ name: '--effort', value: '<level>', help: `reasoning effort of the selected agent, kept per backend (${agents})` }),
};

/** The value type of each agent setting. */
const AGENT_SETTING_TYPES: Record<keyof AgentSettings, ValueType<string> | ValueType<string[]>> = {
  command: commandLine,
  model: text,
  effort: text,
  extraArgs: argumentList,
  minVersion: semver,
};

/** The config keys of every agent's settings, made from the agents' declarations. */
function agentKeys(): { [F in AgentConfigField]: KeySpec<F> } {
  const keys: Record<string, KeySpec<ConfigField>> = {};
  for (const agent of AGENTS) {
    if (agent.settings === undefined) continue;
    for (const [setting, declared] of Object.entries(agent.settings) as [keyof AgentSettings, AgentSettings[keyof AgentSettings]][]) {
      if (declared === undefined) continue;
      const flag = declared.field === setting ? AGENT_FLAGS[setting] : undefined;
      const withSetting = AGENTS.filter((a) => (a.settings as AgentSettings | undefined)?.[setting] !== undefined).map((a) => a.name);
      const fallback = setting === 'command' || setting === 'extraArgs' ? [] : '';
      keys[declared.field] = {
        key: declared.key,
        ...(flag ? { flag: flag(withSetting.join(', ')) } : {}),
        type: AGENT_SETTING_TYPES[setting],
        default: 'default' in declared ? declared.default : fallback,
        doc: declared.doc,
      } as KeySpec<ConfigField>;
    }
  }
  return keys as unknown as { [F in AgentConfigField]: KeySpec<F> };
}

export const CONFIG_KEYS: { [F in ConfigField]: KeySpec<F> } = {
  ...agentKeys(),
  maxCallsPerHour: {
    key: 'MAX_CALLS_PER_HOUR',
    flag: { name: '--calls', short: '-c', value: '<num>', help: 'agent calls allowed per hour' },
    type: integer(1, 100_000),
    default: 100,
    doc: 'Agent calls allowed per hour',
  },
  maxTokensPerHour: {
    key: 'MAX_TOKENS_PER_HOUR',
    flag: { name: '--max-tokens-per-hour', value: '<n>', help: 'input+output tokens allowed per hour' },
    type: integer(0),
    default: 0,
    doc: 'Input+output tokens allowed per hour (0 = no limit)',
  },
  timeoutMinutes: {
    key: 'CLAUDE_TIMEOUT_MINUTES',
    flag: { name: '--timeout', short: '-t', value: '<minutes>', help: 'time limit of one agent call, 1-120' },
    type: integer(1, 120, 'minutes'),
    default: 15,
    doc: 'Wall-clock limit of one agent call',
  },
  outputFormat: {
    key: 'CLAUDE_OUTPUT_FORMAT',
    flag: { name: '--output-format', value: '<format>', help: 'json or text' },
    type: oneOf(['json', 'text'] as const),
    default: 'json',
    doc: 'Output format requested from Claude Code (its answer as json or text)',
  },
  allowedTools: {
    key: 'ALLOWED_TOOLS',
    aliases: ['CLAUDE_ALLOWED_TOOLS'],
    flag: {
      name: '--allowed-tools',
      value: '<tools>',
      help: 'comma-separated tools the agent may use (the backends that honour it: README, Agents)',
    },
    type: toolList,
    default: DEFAULT_ALLOWED_TOOLS,
    doc: 'Tools the agent may use without asking (the backends that honour it: README, Agents)',
  },
  sessionContinuity: {
    key: 'SESSION_CONTINUITY',
    aliases: ['CLAUDE_USE_CONTINUE'],
    flag: { name: '--no-continue', help: 'start a fresh agent session every iteration' },
    type: boolean,
    default: true,
    doc: 'Resume the same agent session across iterations',
  },
  sessionExpiryHours: {
    key: 'SESSION_EXPIRY_HOURS',
    aliases: ['CLAUDE_SESSION_EXPIRY_HOURS'],
    flag: { name: '--session-expiry', value: '<hours>', help: 'start a new session once it is this old' },
    type: integer(1, 24 * 365, 'hours'),
    default: 24,
    doc: 'Start a new agent session once the stored one is this old',
  },
  verbose: {
    key: 'RALPH_VERBOSE',
    aliases: ['VERBOSE_PROGRESS'],
    flag: { name: '--verbose', short: '-v', help: 'detailed progress and debug logs' },
    type: boolean,
    default: false,
    doc: 'Detailed progress and debug log lines',
  },
  live: {
    key: 'RALPH_LIVE',
    flag: { name: '--live', short: '-l', help: "stream the agent's output as it arrives" },
    type: boolean,
    default: false,
    doc: "Stream the agent's output as it arrives",
  },
  showToolArgs: {
    key: 'LIVE_SHOW_TOOL_ARGS',
    flag: { name: '--show-tool-args', help: 'show tool arguments in live output' },
    type: boolean,
    default: false,
    doc: 'Show tool arguments in live output',
  },
  notify: {
    key: 'ENABLE_NOTIFICATIONS',
    flag: { name: '--notify', short: '-n', help: 'desktop notifications for important events' },
    type: boolean,
    default: false,
    doc: 'Desktop notifications for events that matter',
  },
  backup: {
    key: 'ENABLE_BACKUP',
    flag: { name: '--backup', short: '-b', help: 'keep a git checkpoint of every iteration' },
    type: boolean,
    default: false,
    doc: 'Keep a git checkpoint of every iteration',
  },
  promptFile: {
    key: 'RALPH_PROMPT_FILE',
    flag: { name: '--prompt', short: '-p', value: '<file>', help: 'prompt file' },
    type: text,
    default: PROJECT_FILES.prompt,
    doc: 'Prompt file sent to the agent each iteration',
  },
  optionalSections: {
    key: 'OPTIONAL_SECTIONS',
    type: commaList(),
    default: ['Optional', 'Future', 'Future Enhancements', 'Nice to Have'],
    doc: 'fix_plan.md sections whose tasks do not block completion',
  },
  cbNoProgressThreshold: { key: 'CB_NO_PROGRESS_THRESHOLD', type: integer(1, 1000), default: 3, doc: 'Iterations without progress that open the circuit' },
  cbSameErrorThreshold: {
    key: 'CB_SAME_ERROR_THRESHOLD',
    type: integer(1, 1000),
    default: 5,
    doc: 'Iterations repeating the same error that open the circuit',
  },
  cbPermissionDenialThreshold: {
    key: 'CB_PERMISSION_DENIAL_THRESHOLD',
    type: integer(1, 1000),
    default: 2,
    doc: 'Iterations with permission denials that open the circuit',
  },
  cbFailureThreshold: { key: 'CB_FAILURE_THRESHOLD', type: integer(1, 1000), default: 5, doc: 'Consecutive failed agent calls that open the circuit' },
  cbCooldownMinutes: {
    key: 'CB_COOLDOWN_MINUTES',
    type: integer(0, 100_000, 'minutes'),
    default: 30,
    doc: 'Minutes before an open circuit may be retried (half-open)',
  },
  cbAutoReset: {
    key: 'CB_AUTO_RESET',
    flag: { name: '--auto-reset-circuit', help: 'close an open circuit at startup' },
    type: boolean,
    default: false,
    doc: 'Close an open circuit at startup without waiting for the cooldown',
  },
  maxLoops: {
    key: 'MAX_LOOPS',
    flag: { name: '--max-loops', value: '<n>', help: 'stop after N iterations (exit 7)' },
    type: integer(0),
    default: 0,
    doc: 'Stop after this many iterations (0 = no limit)',
  },
  maxCostUsd: {
    key: 'MAX_COST_USD',
    flag: { name: '--max-cost', value: '<usd>', help: 'stop once the run cost this much (exit 7)' },
    type: decimal(0, 'USD'),
    default: 0,
    doc: 'Stop once the run has cost this much (0 = no limit)',
  },
  maxRuntimeMinutes: {
    key: 'MAX_RUNTIME_MINUTES',
    flag: { name: '--max-runtime', value: '<minutes>', help: 'stop after this much time (exit 7)' },
    type: integer(0, Number.MAX_SAFE_INTEGER, 'minutes'),
    default: 0,
    doc: 'Stop after this much wall-clock time (0 = no limit)',
  },
  pauseSeconds: {
    key: 'LOOP_PAUSE_SECONDS',
    flag: { name: '--pause', value: '<seconds>', help: 'pause between iterations, 0 allowed' },
    type: decimal(0, 'seconds'),
    default: 2,
    doc: 'Pause between iterations',
  },
  backend: {
    key: 'RALPH_BACKEND',
    flag: { name: '--backend', value: '<name>', help: BACKEND_NAMES.join(' or ') },
    type: oneOf(BACKEND_NAMES),
    default: 'claude',
    doc: 'Agent backend',
  },
  mockScript: {
    key: 'RALPH_MOCK_SCRIPT',
    flag: { name: '--mock-script', value: '<file>', help: 'scripted responses for the mock backend' },
    type: text,
    default: PROJECT_FILES.mockScript,
    doc: 'Scripted responses for the mock backend',
  },
  verifyCommand: {
    key: 'VERIFY_COMMAND',
    flag: { name: '--verify', value: '<command>', help: 'shell command that must pass (e.g. "npm test")' },
    type: text,
    default: '',
    doc: 'Shell command that must pass before work counts as done',
  },
  verifyPreset: {
    key: 'VERIFY_PRESET',
    flag: { name: '--verify-preset', value: '<name>', help: 'fast (1, 30 s), full (5, 300 s), extended (10, 600 s)' },
    type: oneOf(['', 'fast', 'full', 'extended'] as const),
    default: '',
    doc: 'fast (1 attempt, 30 s), full (5, 300 s), extended (10, 600 s)',
  },
  verifyTimeoutSeconds: {
    key: 'VERIFY_TIMEOUT',
    flag: { name: '--verify-timeout', value: '<seconds>', help: 'time limit of one verify run' },
    type: integer(1, 3600, 'seconds'),
    default: 300,
    doc: 'Time limit of one verify run',
  },
  verifyMaxAttempts: {
    key: 'VERIFY_MAX_ATTEMPTS',
    flag: { name: '--verify-max', value: '<n>', help: 'failed verify attempts before escalation' },
    type: integer(1, 100),
    default: 5,
    doc: 'Failed verify attempts before escalation',
  },
  verifyCwd: {
    key: 'VERIFY_CWD',
    flag: { name: '--verify-cwd', value: '<dir>', help: 'directory the verify command runs in' },
    type: text,
    default: '',
    doc: 'Directory the verify command runs in (relative to the project)',
  },
  verifyEnv: {
    key: 'VERIFY_ENV',
    flag: { name: '--verify-env', value: '<KEY=VALUE>', repeatable: true, help: 'extra environment for the verify command (repeatable)' },
    type: envPairs,
    default: {},
    doc: 'Extra KEY=VALUE variables for the verify command',
  },
  agentEnv: {
    key: 'AGENT_ENV',
    flag: { name: '--agent-env', value: '<NAME>', repeatable: true, help: 'let the agent see this secret-looking variable (repeatable)' },
    type: envNames,
    default: [],
    doc: 'Secret-looking variables the agent may still see (names; withheld by default)',
  },
  checkpoint: {
    key: 'CHECKPOINT',
    flag: {
      name: '--checkpoint',
      help: 'git checkpoint before each iteration (default: on with --verify); an iteration that needs one does not start without it',
      off: { name: '--no-checkpoint', help: 'no git checkpoints (accepts running iterations that cannot be undone)' },
    },
    type: checkpointMode,
    default: 'auto',
    doc: 'Git checkpoint before each iteration (auto = when a verify command or rollback is set)',
  },
  checkpointKeep: {
    key: 'CHECKPOINT_KEEP',
    type: integer(0, 1000),
    default: 10,
    doc: 'Checkpoints kept for ralph --restore (failed attempts; with --backup, every iteration)',
  },
  rollbackOnFail: {
    key: 'ROLLBACK_ON_FAIL',
    flag: { name: '--rollback-on-fail', help: 'restore the checkpoint when verification fails or the agent call fails after changing files' },
    type: boolean,
    default: false,
    doc: 'Restore the checkpoint when verification fails or the agent call fails after changing files',
  },
  onVerifyExhausted: {
    key: 'ON_VERIFY_EXHAUSTED',
    flag: { name: '--on-verify-exhausted', value: '<action>', help: 'ask, retry, skip or abort; ask needs a terminal, elsewhere it aborts' },
    type: oneOf(['ask', 'retry', 'skip', 'abort'] as const),
    default: 'ask',
    doc: 'What to do when verify attempts run out (ask only on a terminal; otherwise abort)',
  },
  usageLimitWaitMinutes: {
    key: 'USAGE_LIMIT_WAIT_MINUTES',
    aliases: ['RESET_WAIT_MINUTES'],
    type: integer(1, 24 * 60, 'minutes'),
    default: 60,
    doc: 'Wait after a usage limit when no reset time is given',
  },
  apiRetryMax: { key: 'API_RETRY_MAX', type: integer(0, 20), default: 3, doc: 'Retries of an API rate-limit/overload error' },
  apiRetryWaitSeconds: {
    key: 'API_RETRY_WAIT_SECONDS',
    type: integer(0, 86_400, 'seconds'),
    default: 300,
    doc: 'First wait before retrying an API error; each retry waits one step longer',
  },
  sandbox: {
    key: 'RALPH_SANDBOX',
    flag: { name: '--sandbox', help: 'run every agent call contained: writes only in the project, network only to the agent API (docs/sandbox.md)' },
    type: boolean,
    default: false,
    doc: 'Run every agent call inside the sandbox runtime (bubblewrap on Linux, sandbox-exec on macOS)',
  },
  sandboxAllowDomains: {
    key: 'RALPH_SANDBOX_ALLOW_DOMAINS',
    flag: {
      name: '--sandbox-allow-domain',
      value: '<domain>',
      repeatable: true,
      help: 'let the sandboxed agent reach this host too, e.g. registry.npmjs.org (repeatable)',
    },
    type: domainList,
    default: [],
    doc: 'Hosts the sandboxed agent may reach besides its API (*.example.com, host:port)',
  },
  sandboxAllowWrite: {
    key: 'RALPH_SANDBOX_ALLOW_WRITE',
    flag: { name: '--sandbox-allow-write', value: '<path>', repeatable: true, help: 'let the sandboxed agent write here too (repeatable)' },
    type: pathList,
    default: [],
    doc: 'Paths the sandboxed agent may write besides the project, the temp dir and its config dir',
  },
  sandboxVerify: {
    key: 'RALPH_SANDBOX_VERIFY',
    flag: { name: '--sandbox-verify', help: 'run the verify command in the sandbox too (the default with --sandbox; kept for older scripts)' },
    type: boolean,
    default: true,
    doc: 'Run the verify command inside the sandbox too (the default: the agent wrote the tests it runs)',
  },
  verifyOutsideSandbox: {
    key: 'RALPH_VERIFY_OUTSIDE_SANDBOX',
    flag: {
      name: '--verify-outside-sandbox',
      help: 'with --sandbox, run the verify command uncontained (it runs code the agent wrote: only for tests that need the network or services)',
    },
    type: boolean,
    default: false,
    doc: 'With the sandbox on, run the verify command outside it (it runs what the agent wrote, uncontained)',
  },
  parkAt: {
    key: 'PARK_AT',
    flag: {
      name: '--park-at',
      value: '<when>',
      help: "wait for a subscription window's reset once it nears its end: warning, warning:seven_day, 80% (docs/subscription-windows.md)",
    },
    type: quotaThreshold,
    default: null,
    doc: 'Wait for a subscription window to reset once it reaches this (warning[:windows] or N%)',
  },
  stopAt: {
    key: 'STOP_AT',
    flag: { name: '--stop-at', value: '<when>', help: 'end the run once a subscription window nears its end, as --park-at (exit 5)' },
    type: quotaThreshold,
    default: null,
    doc: 'End the run once a subscription window reaches this (warning[:windows] or N%)',
  },
  maxTokens: {
    key: 'MAX_TOKENS',
    flag: { name: '--max-tokens', value: '<n>', help: 'stop once the run used this many tokens, cache reads and writes included (exit 7)' },
    type: integer(0),
    default: 0,
    doc: 'Stop once the run has used this many tokens: input, output, cache reads and writes (0 = no limit)',
  },
  review: {
    key: 'RALPH_REVIEW',
    aliases: ['REVIEW'],
    flag: { name: '--review', help: 'before the loop ends complete, a fresh read-only agent call reviews the run (docs/reviewer.md)' },
    type: boolean,
    default: false,
    doc: "A read-only reviewer call approves the run's diff before the loop ends complete",
  },
  reviewBackend: {
    key: 'REVIEW_BACKEND',
    flag: { name: '--review-backend', value: '<name>', help: `the reviewer's agent: ${BACKEND_NAMES.join(' or ')} (default: the loop's own)` },
    type: oneOf(['', ...BACKEND_NAMES] as const),
    default: '',
    doc: "The reviewer's agent backend (empty = the loop's own)",
  },
  reviewModel: {
    key: 'REVIEW_MODEL',
    flag: { name: '--review-model', value: '<model>', help: "the reviewer's model (default: the reviewer agent's configured model)" },
    type: text,
    default: '',
    doc: "The reviewer's model (empty = the reviewer agent's configured model)",
  },
  reviewMax: {
    key: 'REVIEW_MAX',
    flag: { name: '--review-max', value: '<n>', help: 'rejected reviews in a row before the loop stops (exit 6)' },
    type: integer(1, 100),
    default: 3,
    doc: 'Reviews in a row that ask for changes before the loop stops with review_rejected',
  },
};

/** Keys the original writes that need no action here: accepted silently. */
export const INFORMATIONAL_KEYS: ReadonlySet<string> = new Set([
  'PROJECT_NAME',
  'PROJECT_TYPE',
  'TASK_SOURCES',
  'GITHUB_TASK_LABEL',
  'BEADS_FILTER',
  // We never update Claude Code behind the user's back, so this key does nothing.
  'CLAUDE_AUTO_UPDATE',
  'CB_OUTPUT_DECLINE_THRESHOLD',
  'PROMPT_FILE',
  'FIX_PLAN_FILE',
  'AGENT_FILE',
  'RALPH_SHELL_INIT_FILE',
]);

/** Families of the original that this port does not implement yet: warned about, ignored. */
export const UNSUPPORTED_KEY =
  /^(SANDBOX_|SYNC_|GITHUB_ISSUE$|COMMENT_PROGRESS$|COMMENT_INTERVAL$|AUTO_CLOSE$|CLOSE_SUMMARY$|CREATE_PR$|LINK_ISSUE$|DRAFT_PR$|CREATE_FOLLOWUPS$|FOLLOWUP_LABEL$|ADD_COMPLETION_LABELS$|QUEUE_FILE$)/;

export const CONFIG_FIELDS = Object.keys(CONFIG_KEYS) as ConfigField[];

/** The fields of every agent's command and extra arguments: what decides which program runs, and how. */
export const AGENT_COMMAND_FIELDS: readonly ConfigField[] = AGENTS.flatMap((agent) =>
  agent.settings === undefined ? [] : [agent.settings.command.field, agent.settings.extraArgs.field],
);

/** .ralphrc / environment name → field. */
export const FIELD_BY_NAME: ReadonlyMap<string, ConfigField> = new Map(
  CONFIG_FIELDS.flatMap((field) => {
    const spec = CONFIG_KEYS[field];
    return [spec.key, ...(spec.aliases ?? [])].map((name) => [name, field] as const);
  }),
);

export function defaultConfig(): RalphConfig {
  const out = {} as Record<ConfigField, unknown>;
  for (const field of CONFIG_FIELDS) {
    const value = CONFIG_KEYS[field].default;
    out[field] = Array.isArray(value) ? [...value] : typeof value === 'object' && value !== null ? { ...value } : value;
  }
  return out as unknown as RalphConfig;
}
