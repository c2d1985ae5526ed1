import type { AgentBackend } from '../ports.js';
import type { AgentDeclaration, BackendCapabilities } from './agent-declaration.js';
import type { AgentModule } from './agent-module.js';
import { agentDeclaration, AGENTS, BACKEND_NAMES, type BackendName } from './agents.js';
import type { BackendContext } from './context.js';

// Every registered agent loads an AgentModule: checked here, where both sides are known.
AGENTS satisfies readonly { load(): Promise<AgentModule> }[];

export { BACKEND_NAMES, type BackendName };
export type { BackendCapabilities, BackendContext };

/** A registered agent: its declaration, and its backend built and checked on demand. */
export interface BackendEntry extends AgentDeclaration<BackendName> {
  /** Builds the backend; loaded on demand so read-only commands never pay for it. */
  create(ctx: BackendContext): Promise<AgentBackend>;
  /** Checks before the first call that the agent can run at all (throws a RalphError if not). */
  preflight(ctx: BackendContext): Promise<void>;
}

/** The entry of a registered agent (agents.ts is where an agent is registered). */
export function backendEntry(name: BackendName): BackendEntry {
  const declaration = loadableAgent(name);
  return {
    ...declaration,
    create: async (ctx) => (await declaration.load()).create(ctx),
    preflight: async (ctx) => (await declaration.load()).preflight?.(ctx),
  };
}

/** A registered agent's declaration, its code typed as what every agent loads. */
export function loadableAgent(name: BackendName): AgentDeclaration<BackendName, AgentDeclaration['settings'], AgentModule> {
  return agentDeclaration(name) as AgentDeclaration<BackendName, AgentDeclaration['settings'], AgentModule>;
}

/** How messages name the agent of a backend, registered or not. */
export function agentDisplayName(name: string): string {
  return AGENTS.find((agent) => agent.name === name)?.displayName ?? `${name} agent`;
}

/** Whether a name is a registered backend's. */
export function isBackendName(name: string): name is BackendName {
  return (BACKEND_NAMES as readonly string[]).includes(name);
}

/** Every backend name, the given default first (where a list shows the default first). */
export function backendNamesFirst(first: BackendName): [BackendName, ...BackendName[]] {
  return [first, ...BACKEND_NAMES.filter((name) => name !== first)];
}

/** "mock (default, scripted) or claude (real Claude Code)": the choices for a help text. */
export function describeBackendChoices(first: BackendName): string {
  return backendNamesFirst(first)
    .map((name, i) => `${name} (${i === 0 ? 'default, ' : ''}${agentDeclaration(name).about})`)
    .join(' or ');
}

/** The backends that can do something, for help texts ("claude, codex"). */
export function backendsThat(capability: keyof BackendCapabilities): BackendName[] {
  return BACKEND_NAMES.filter((name) => agentDeclaration(name).capabilities[capability]);
}
