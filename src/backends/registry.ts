import type { SandboxAgentFacts } from '../core/sandbox-policy.js';
import type { AgentBackend } from '../ports.js';
import type { BackendContext } from './backend-context.js';
import { BACKEND_NAMES, type BackendName } from '../config/backend-names.js';
import { OPENCODE_SANDBOX } from './opencode/opencode-sandbox.js';
import { GEMINI_SANDBOX } from './gemini/gemini-sandbox.js';
import { CODEX_SANDBOX } from './codex/codex-sandbox.js';
import { CLAUDE_SANDBOX } from './claude/claude-sandbox.js';

export { BACKEND_NAMES, type BackendName };

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
}

export interface BackendEntry {
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
  /** Builds the backend; loaded on demand so read-only commands never pay for it. */
  create(ctx: BackendContext): Promise<AgentBackend>;
  /** Checks before the first call that the agent can run at all (throws a RalphError if not). */
  preflight?(ctx: BackendContext): Promise<void>;
}

/**
 * Every agent Ralph can run, by the name `--backend` and RALPH_BACKEND take. Adding an agent is
 * a folder under src/backends/, its name in src/config/backend-names.ts and one entry here;
 * tests/integration/backends/conformance.test.ts runs against every entry.
 */
export const BACKENDS = {
  claude: {
    displayName: 'Claude Code',
    about: 'real Claude Code',
    capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true },
    instructionsFile: 'CLAUDE.md',
    install: 'npm install -g @anthropic-ai/claude-code',
    sandbox: CLAUDE_SANDBOX,
    login: 'log in by running `claude` once (or set ANTHROPIC_API_KEY)',
    create: async (ctx) => (await import('./claude/create-claude-backend.js')).createClaudeBackend(ctx),
    preflight: async (ctx) => (await import('./claude/create-claude-backend.js')).checkClaudeBeforeLoop(ctx),
  },
  codex: {
    displayName: 'Codex CLI',
    about: "OpenAI's Codex CLI",
    // Cost is estimated from tokens × list price (Codex reports tokens only) when the model is known and listed.
    capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: false },
    instructionsFile: 'AGENTS.md',
    deniedAdvice: [
      "Codex CLI's own sandbox refused them: CODEX_EXTRA_ARGS chose its",
      'sandbox mode, and ALLOWED_TOOLS does not apply to Codex. Give it the',
      'access the work needs there, for example to write in the project:',
      '  CODEX_EXTRA_ARGS="--sandbox workspace-write"',
      'or leave the sandbox mode out, and Codex runs as Ralph runs every agent.',
    ],
    install: 'npm install -g @openai/codex',
    sandbox: CODEX_SANDBOX,
    login: 'log in with `codex login` (or set OPENAI_API_KEY)',
    create: async (ctx) => (await import('./codex/create-codex-backend.js')).createCodexBackend(ctx),
    preflight: async (ctx) => (await import('./codex/create-codex-backend.js')).checkCodexBeforeLoop(ctx),
  },
  gemini: {
    displayName: 'Gemini CLI',
    about: 'Google Gemini CLI',
    // Cost is estimated from tokens × list price (Gemini reports tokens only) when the model is listed.
    capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true },
    instructionsFile: 'GEMINI.md',
    install: 'npm install -g @google/gemini-cli',
    sandbox: GEMINI_SANDBOX,
    login: 'log in by running `gemini` once (or set GEMINI_API_KEY)',
    create: async (ctx) => (await import('./gemini/create-gemini-backend.js')).createGeminiBackend(ctx),
    preflight: async (ctx) => (await import('./gemini/create-gemini-backend.js')).checkGeminiBeforeLoop(ctx),
  },
  opencode: {
    displayName: 'OpenCode',
    about: 'real OpenCode',
    capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true },
    instructionsFile: 'AGENTS.md',
    install: 'npm install -g opencode-ai',
    sandbox: OPENCODE_SANDBOX,
    login: 'log in to your model provider with `opencode auth login`',
    create: async (ctx) => (await import('./opencode/create-opencode-backend.js')).createOpencodeBackend(ctx),
    preflight: async (ctx) => (await import('./opencode/create-opencode-backend.js')).checkOpencodeBeforeLoop(ctx),
  },
  mock: {
    displayName: 'mock agent',
    about: 'scripted',
    capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: false },
    sandbox: { configDirs: [], hosts: [], baseUrlVariables: [] },
    create: async (ctx) => (await import('./mock-backend.js')).createMockBackend(ctx),
  },
} satisfies Record<BackendName, BackendEntry>;

export function backendEntry(name: BackendName): BackendEntry {
  return BACKENDS[name];
}

/** How messages name the agent of a backend, registered or not. */
export function agentDisplayName(name: string): string {
  return name in BACKENDS ? BACKENDS[name as BackendName].displayName : `${name} agent`;
}

/** Every backend name, the given default first (where a list shows the default first). */
export function backendNamesFirst(first: BackendName): [BackendName, ...BackendName[]] {
  return [first, ...BACKEND_NAMES.filter((name) => name !== first)];
}

/** "mock (default, scripted) or claude (real Claude Code)": the choices for a help text. */
export function describeBackendChoices(first: BackendName): string {
  return backendNamesFirst(first)
    .map((name, i) => `${name} (${i === 0 ? 'default, ' : ''}${BACKENDS[name].about})`)
    .join(' or ');
}

/** The backends that can do something, for help texts ("claude, codex"). */
export function backendsThat(capability: keyof BackendCapabilities): BackendName[] {
  return BACKEND_NAMES.filter((name) => BACKENDS[name].capabilities[capability]);
}
