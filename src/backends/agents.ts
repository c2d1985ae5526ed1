import type { AgentDeclaration, AgentSettings } from './agent-declaration.js';
import { CLAUDE_AGENT } from './claude/claude-agent.js';
import { CODEX_AGENT } from './codex/codex-agent.js';
import { GEMINI_AGENT } from './gemini/gemini-agent.js';
import { MOCK_AGENT } from './mock/mock-agent.js';
import { OPENCODE_AGENT } from './opencode/opencode-agent.js';

/**
 * Every agent Ralph can run, in the order help texts list them: the one place an agent is
 * registered. Each entry is its folder's declaration, data only (its code loads when a run
 * needs it), so the settings, the help texts and the read-only commands know every agent
 * without loading one. The config keys of each agent's settings, the `--backend` choices,
 * the sandbox's view of the other agents and the README's table are all made from this list;
 * tests/integration/backends/conformance.test.ts runs against every entry that has a CLI.
 */
export const AGENTS = [CLAUDE_AGENT, CODEX_AGENT, GEMINI_AGENT, OPENCODE_AGENT, MOCK_AGENT] as const;

export type Agent = (typeof AGENTS)[number];

/** The name `--backend` and RALPH_BACKEND take, of any registered agent. */
export type BackendName = Agent['name'];

export const BACKEND_NAMES: readonly BackendName[] = AGENTS.map((agent) => agent.name);

/** The declaration of a registered agent. */
export function agentDeclaration(name: BackendName): AgentDeclaration<BackendName> {
  return AGENTS.find((agent) => agent.name === name) as AgentDeclaration<BackendName>;
}

/** The config field of one setting of an agent, or undefined when its CLI has no such setting. */
export function agentSettingField(name: BackendName, setting: keyof AgentSettings): string | undefined {
  return agentDeclaration(name).settings?.[setting]?.field;
}

/** The backends whose CLI has a setting, for help texts ("claude, codex"). */
export function backendsWithSetting(setting: keyof AgentSettings): BackendName[] {
  return BACKEND_NAMES.filter((name) => agentSettingField(name, setting) !== undefined);
}
