import { backendEntry, type BackendName } from '../../../backends/registry.js';
import type { RalphrcSetting } from './ralph-layout.js';

/**
 * What choosing an agent writes into a project, shared by ralph-setup and ralph-enable:
 * RALPH_BACKEND in .ralphrc, and the instructions file that agent's CLI reads by itself from
 * the project root (CLAUDE.md, AGENTS.md, GEMINI.md), pointing at .ralph/AGENT.md.
 */
export interface BackendChoiceFiles {
  setting: RalphrcSetting;
  instructionsFile?: string;
}

export function backendChoiceFiles(backend: BackendName): BackendChoiceFiles {
  const { instructionsFile } = backendEntry(backend);
  return { setting: { key: 'RALPH_BACKEND', value: backend }, ...(instructionsFile === undefined ? {} : { instructionsFile }) };
}
