import { relative } from 'node:path';
import { INITIAL_COMMIT_MESSAGE } from '../setup/project-repository.js';
import { quoteForShell } from '../setup/setup-project.js';
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
  const where = relative(cwd, report.projectDir) || '.';
  lines.push(
    '',
    'Next steps:',
    ...(where === '.' ? [] : [`  cd ${quoteForShell(where)}`]),
    '  1. Review .ralph/PROMPT.md, .ralph/fix_plan.md and .ralph/specs/requirements.md',
    '  2. Optional: set VERIFY_COMMAND in .ralphrc (for example "npm test") so Ralph checks the work itself',
    '  3. Start the loop: ralph        watch it from another terminal: ralph-monitor',
  );
  return `${lines.join('\n')}\n`;
}
