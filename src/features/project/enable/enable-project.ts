import { join } from 'node:path';
import { ExitCode, RalphError } from '../../../errors.js';
import { createFileExclusive } from '../setup/file-writes.js';
import { missingProjectFiles } from '../../../state/project-files.js';
import { ralphPaths } from '../../../state/paths.js';
import { dropTaskStateIgnore } from '../../../state/task-state-ignore.js';
import { createRalphLayout, type LayoutResult, type ProjectCommands, type RalphrcSetting } from '../setup/ralph-layout.js';
import type { SourceDocument } from '../import/read-source.js';
import type { BackendName } from '../../../backends/registry.js';
import { backendChoiceFiles } from '../setup/backend-choice.js';
import { extractPrdTasks, renderFixPlan } from './prd-tasks.js';
import { readRalphrcValue } from './ralphrc-read.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

export interface VerifyChoice {
  command: string;
  /** true: VERIFY_COMMAND is set; false: written commented out as a proposal. */
  enabled: boolean;
}

export interface EnableRequest {
  projectDir: string;
  projectName: string;
  projectType: string;
  framework: string;
  commands: ProjectCommands;
  force: boolean;
  prd?: SourceDocument;
  verify?: VerifyChoice;
  /** Set only when the user chose a value different from the current one. */
  maxCallsPerHour?: number;
  /** The agent chosen with --backend or in the wizard; absent when the user kept the current one. */
  backend?: BackendName;
}

export interface EnableResult {
  layout: LayoutResult;
  tasksImported: number;
  /** VERIFY_COMMAND in effect in .ralphrc afterwards ('' when none or only proposed). */
  verifyCommand: string;
  /** RALPH_BACKEND in effect in .ralphrc afterwards (the default agent when none is set). */
  backend: string;
  warnings: string[];
}

const PROPOSAL_NOTE = [
  'Proposed by ralph-enable for this project. Remove the "# " below to let Ralph run it',
  'after each iteration and accept "done" only when it passes.',
];

function splitRalphrcChoices(request: EnableRequest): { settings: RalphrcSetting[]; proposals: RalphrcSetting[] } {
  const settings: RalphrcSetting[] = [];
  const proposals: RalphrcSetting[] = [];
  if (request.verify?.enabled) settings.push({ key: 'VERIFY_COMMAND', value: request.verify.command });
  else if (request.verify) proposals.push({ key: 'VERIFY_COMMAND', value: request.verify.command, commented: true, note: PROPOSAL_NOTE });
  if (request.maxCallsPerHour !== undefined) settings.push({ key: 'MAX_CALLS_PER_HOUR', value: String(request.maxCallsPerHour) });
  if (request.backend !== undefined) settings.push(backendChoiceFiles(request.backend).setting);
  return { settings, proposals };
}

/**
 * Writes Ralph's files into an existing project. Tasks of a
 * PRD go into fix_plan.md and the PRD itself is copied to .ralph/specs/ so the
 * agent can read the full requirements. Ends with the integrity check the loop
 * itself runs: if a required file is missing, enabling failed.
 */
export function enableProject(request: EnableRequest): EnableResult {
  const warnings: string[] = [];
  const tasks = request.prd ? extractPrdTasks(request.prd.text) : [];
  if (request.prd && tasks.length === 0)
    warnings.push(`no tasks (checkboxes, numbered or bulleted items) found in ${request.prd.name}; fix_plan.md has the default tasks`);
  const { settings, proposals } = splitRalphrcChoices(request);
  const instructionsFile = request.backend === undefined ? undefined : backendChoiceFiles(request.backend).instructionsFile;
  // A `.ralph/` left by `ralph run` ignored itself; a full project's plan and prompt belong in git.
  dropTaskStateIgnore(ralphPaths(request.projectDir));
  const layout = createRalphLayout(request.projectDir, {
    projectName: request.projectName,
    projectType: request.projectType,
    framework: request.framework,
    force: request.force,
    gitignore: 'merge',
    commands: request.commands,
    ...(tasks.length > 0 && request.prd ? { fixPlan: renderFixPlan(tasks, request.prd.name) } : {}),
    ralphrcSettings: settings,
    ralphrcProposals: proposals,
    ...(instructionsFile === undefined ? {} : { instructionsFile }),
  });
  let tasksImported = tasks.length;
  if (tasks.length > 0 && layout.skipped.includes(PROJECT_FILES.fixPlan)) {
    warnings.push(`${PROJECT_FILES.fixPlan} already exists and was kept, so no tasks were imported (use --force to replace it)`);
    tasksImported = 0;
  }
  if (request.prd) {
    const rel = `.ralph/specs/${request.prd.name}`;
    if (createFileExclusive(join(request.projectDir, rel), request.prd.text)) layout.created.push(rel);
    else layout.skipped.push(rel);
  }
  const missing = missingProjectFiles(request.projectDir);
  if (missing.length > 0) {
    throw new RalphError(
      `Ralph could not be enabled: missing ${missing.join(', ')}`,
      ExitCode.RuntimeError,
      'Check the folder permissions and run ralph-enable again (it creates only the missing files).',
    );
  }
  return {
    layout,
    tasksImported,
    verifyCommand: readRalphrcValue(request.projectDir, 'VERIFY_COMMAND') ?? '',
    backend: readRalphrcValue(request.projectDir, 'RALPH_BACKEND') ?? 'claude',
    warnings,
  };
}
