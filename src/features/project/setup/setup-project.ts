import { statSync } from 'node:fs';
import { ExitCode, RalphError } from '../../../errors.js';
import type { ProcessRunner } from '../../../ports.js';
import { deriveDisplayName } from './project-name.js';
import { commitInitialSetup, INITIAL_COMMIT_MESSAGE, type RepositoryResult } from './project-repository.js';
import type { BackendName } from '../../../backends/registry.js';
import { backendChoiceFiles } from './backend-choice.js';
import { createRalphLayout, type LayoutResult } from './ralph-layout.js';
import { nextStepsLines } from './next-steps.js';

export interface SetupReport {
  projectDir: string;
  projectName: string;
  layout: LayoutResult;
  repository: RepositoryResult;
}

/** Whether `dir` already exists as a folder (a file of that name is an error). */
function folderExists(dir: string): boolean {
  try {
    if (statSync(dir).isDirectory()) return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  throw new RalphError(`${dir} exists and is not a folder`, ExitCode.RuntimeError, 'Choose another project name.');
}

/**
 * ralph-setup: the Ralph layout plus `src/` and a README in a new or
 * existing folder, then an initial commit of exactly the files it created.
 */
export async function setupProject(projectDir: string, runner: ProcessRunner, backend?: BackendName): Promise<SetupReport> {
  const existed = folderExists(projectDir);
  const projectName = deriveDisplayName(projectDir);
  const choice = backend === undefined ? undefined : backendChoiceFiles(backend);
  const layout = createRalphLayout(projectDir, {
    projectName,
    includeSrc: true,
    createReadme: true,
    gitignore: 'create-only',
    ...(choice === undefined ? {} : { ralphrcSettings: [choice.setting] }),
    ...(choice?.instructionsFile === undefined ? {} : { instructionsFile: choice.instructionsFile }),
  });
  const repository = await commitInitialSetup(projectDir, layout.created, { newFolder: !existed, runner });
  return { projectDir, projectName, layout, repository };
}

export function formatSetupReport(report: SetupReport, cwd: string): string {
  const lines: string[] = [`Ralph project ready: ${report.projectDir}`];
  if (report.layout.created.length > 0) lines.push(`  created: ${report.layout.created.join(', ')}`);
  if (report.layout.skipped.length > 0) lines.push(`  kept as they were (already there): ${report.layout.skipped.join(', ')}`);
  const repo = report.repository;
  if (repo.committed) lines.push(`  git: ${repo.repository === 'created' ? 'new repository, ' : ''}commit "${INITIAL_COMMIT_MESSAGE}"`);
  if (repo.identitySet)
    lines.push(
      '  git: no identity was configured, so this repository got a local one (change it with: git config user.name "Your Name"; git config user.email you@example.com)',
    );
  for (const warning of repo.warnings) lines.push(`  warning: ${warning}`);
  lines.push(...nextStepsLines(cwd, report.projectDir, 'Describe what to build in .ralph/specs/ and list the tasks in .ralph/fix_plan.md'));
  return `${lines.join('\n')}\n`;
}
