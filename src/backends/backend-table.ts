import type { AgentDeclaration, BackendCapabilities } from './agent-declaration.js';
import { AGENTS } from './agents.js';

const COLUMNS: readonly [keyof BackendCapabilities, string][] = [
  ['resume', 'resume'],
  ['cost', 'cost'],
  ['liveView', 'live view'],
  ['permissionDenials', 'permission denials'],
  ['usageLimits', 'limits'],
  ['allowedTools', 'ALLOWED_TOOLS'],
];

/**
 * The README's table of backends, made from the registry so the two cannot disagree: one row
 * per backend with what it supports, its instructions file and how to install its CLI.
 */
export function renderBackendTable(): string {
  const head = ['backend', 'agent', ...COLUMNS.map(([, title]) => title), 'instructions file', 'install'];
  const rows = AGENTS.map((entry: AgentDeclaration) => {
    return [
      `\`${entry.name}\``,
      entry.displayName,
      ...COLUMNS.map(([capability]) => (entry.capabilities[capability] ? 'yes' : 'no')),
      entry.instructionsFile === undefined ? '—' : `\`${entry.instructionsFile}\``,
      entry.install === undefined ? '—' : `\`${entry.install}\``,
    ];
  });
  return [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
