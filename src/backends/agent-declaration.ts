import type { SandboxAgentFacts } from '../core/sandbox-policy.js';

/** What a backend can do beyond running a call, for the messages and checks that depend on it. */
export interface BackendCapabilities {
  /** Continues the agent's conversation from one call to the next. */
  resume: boolean;
  /** Reports what each call cost. */
  cost: boolean;
  /** Streams its progress while it runs (--live). */
  liveView: boolean;
  /** Reports the tool calls it was refused. */
  permissionDenials: boolean;
  /** Recognises its usage or quota limit and waits for the reset instead of failing. */
  usageLimits: boolean;
  /** Runs with only the tools ALLOWED_TOOLS lists. */
  allowedTools: boolean;
  /**
   * Reports its subscription windows (--park-at, --stop-at): with a status of its own, warning
   * included, or as used percentages only; absent when it reports none.
   */
  quotaWindows?: 'status' | 'percent';
}

/** The read-only mode of an agent: what a call that must change nothing runs with. */
export interface ReadOnlyMode {
  /** How the mode works, in one line ("--sandbox read-only"). */
  about: string;
  /** Tools the read-only call may use (agents that take a tool list). */
  tools?: readonly string[];
  /** Tools refused outright, whatever the user's own settings allow. */
  deniedTools?: readonly string[];
}

/** One .ralphrc setting of an agent CLI: its config field, its key, and the line `ralph --config` and the template say. */
export interface AgentSetting<F extends string = string> {
  field: F;
  key: string;
  doc: string;
}

/**
 * The .ralphrc settings every agent CLI has, each under the agent's own key; Ralph makes the
 * config keys from them, so an agent declares them here and nowhere else. `--model` and
 * `--effort` set the selected backend's own model and effort (a backend without an effort
 * setting leaves it out, and `--effort` then says it is ignored).
 */
export interface AgentSettings {
  command: AgentSetting & { default: readonly string[] };
  model: AgentSetting;
  effort?: AgentSetting;
  extraArgs: AgentSetting;
  minVersion: AgentSetting & { default: string };
}

/**
 * Everything Ralph knows of one agent without loading its code: how messages name it, what it
 * can do, what it needs of a sandbox, its settings, and how to load the rest. Its folder under
 * src/backends/ declares it; one entry in agents.ts registers it.
 */
export interface AgentDeclaration<N extends string = string, S extends AgentSettings | undefined = AgentSettings | undefined, M = unknown> {
  /** The name `--backend` and RALPH_BACKEND take. */
  name: N;
  /** How messages name the agent. */
  displayName: string;
  /** One line for help texts. */
  about: string;
  capabilities: BackendCapabilities;
  /**
   * The instructions file the agent's CLI reads by itself from the project root. ralph-setup
   * and ralph-enable write a short one pointing at .ralph/AGENT.md when the project has none.
   */
  instructionsFile?: string;
  /**
   * What to do about a denied tool or command, for an agent that does not run with the tools
   * ALLOWED_TOOLS lists (its own sandbox or rules refused it); lines of the halt screen.
   */
  deniedAdvice?: readonly string[];
  /** The command that installs the agent's CLI, for setup lines and messages. */
  install?: string;
  /** How the user logs the agent's CLI in once installed, for the "not found" message ("log in with `codex login` …"). */
  login?: string;
  /** What the agent's CLI needs of a sandbox (--sandbox): its own folders, its API hosts. */
  sandbox: SandboxAgentFacts;
  /**
   * How a read-only call (the reviewer, `--review`) runs this agent: one line for docs and
   * messages, and the tools it keeps and refuses where the agent takes tool lists. An agent
   * without one cannot review (`--review` with it is refused before the loop starts).
   */
  readOnly?: ReadOnlyMode;
  /** The agent CLI's own .ralphrc settings; the mock agent has none. */
  settings: S;
  /**
   * Loads the backend's code (its AgentModule, agent-module.ts); only a run pays for it. The
   * declarations sit below the settings, which are made from them, so they reach their code only
   * through this import(); the registry checks that what each one loads is an AgentModule.
   */
  load(): Promise<M>;
}

/** An agent's declaration with its name and settings kept exact, so the config keys can be typed from them. */
export function defineAgent<const N extends string, const S extends AgentSettings | undefined, M>(
  declaration: AgentDeclaration<N, S, M>,
): AgentDeclaration<N, S, M> {
  return declaration;
}
