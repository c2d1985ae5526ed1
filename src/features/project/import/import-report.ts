import { INITIAL_COMMIT_MESSAGE } from '../setup/project-repository.js';
import { nextStepsLines } from '../setup/next-steps.js';
import { CONVERSION_OUTPUTS } from './conversion-prompt.js';
import type { ImportReport } from './import-project.js';

export function formatImportReport(report: ImportReport, cwd: string): string {
  const lines = [
    `Project created in: ${report.projectDir}`,
    `  from: ${report.source.path} (copied into the project as ${report.source.name}; the original was not changed)`,
    `  written by Claude: ${CONVERSION_OUTPUTS.join(', ')}`,
  ];
  if (report.statusSectionAdded) lines.push("  note: Claude's PROMPT.md had no RALPH_STATUS block, so Ralph's status reporting section was appended");
  if (report.summary !== '') lines.push(`  Claude said: ${report.summary}`);
  if (report.sessionId !== undefined) lines.push(`  Claude session: ${report.sessionId}`);
  lines.push(`  Claude's output: ${report.logPath}`);
  if (report.repository.committed) lines.push(`  git: commit "${INITIAL_COMMIT_MESSAGE}"`);
  for (const warning of report.repository.warnings) lines.push(`  warning: ${warning}`);
  lines.push(...nextStepsLines(cwd, report.projectDir, 'Review .ralph/PROMPT.md, .ralph/fix_plan.md and .ralph/specs/requirements.md'));
  return `${lines.join('\n')}\n`;
}
