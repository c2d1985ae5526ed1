import { basename } from 'node:path';
import { BACKEND_NAMES, agentDisplayName, type BackendName } from '../../../backends/registry.js';
import { ExitCode, RalphError } from '../../../errors.js';
import { readSourceDocument, type SourceDocument } from '../import/read-source.js';
import { detectProject, type ProjectInfo } from './detect-project.js';
import { enableProject, type EnableRequest, type EnableResult, type VerifyChoice } from './enable-project.js';
import { runEnableWizard } from './enable-wizard.js';
import { findPrdFiles, readProjectFiles } from './project-files.js';
import type { Prompter } from './prompts.js';
import { checkRalphState } from './ralph-state.js';
import { readRalphrcValue } from './ralphrc-read.js';

export const ALREADY_ENABLED_MESSAGE = 'Ralph already enabled. Use --force to override.';

export interface EnableOptions {
  cwd: string;
  force: boolean;
  /** A prompter means interactive (wizard); none means --non-interactive. */
  prompter?: Prompter;
  prdPath?: string;
  projectName?: string;
  projectType?: string;
  verifyCommand?: string;
  backend?: BackendName;
}

export interface EnableOutcome {
  detected: ProjectInfo;
  request: EnableRequest;
  result: EnableResult;
}

function readCurrentMaxCalls(cwd: string): number {
  const value = Number(readRalphrcValue(cwd, 'MAX_CALLS_PER_HOUR'));
  return Number.isSafeInteger(value) && value > 0 ? value : 100;
}

/** RALPH_BACKEND of the existing .ralphrc when it names a known agent, else the default. */
function readCurrentBackend(cwd: string): BackendName {
  const value = readRalphrcValue(cwd, 'RALPH_BACKEND');
  return BACKEND_NAMES.find((name) => name === value) ?? 'claude';
}

async function confirmOverwrite(options: EnableOptions): Promise<boolean> {
  if (options.force) return true;
  if (!options.prompter) throw new RalphError(ALREADY_ENABLED_MESSAGE, ExitCode.Usage);
  const yes = await options.prompter.confirm("Ralph is already enabled here. Replace Ralph's files in .ralph/ (PROMPT.md, fix_plan.md, AGENT.md)?", false);
  if (!yes) throw new RalphError(ALREADY_ENABLED_MESSAGE, ExitCode.Usage);
  return true;
}

/**
 * ralph-enable: detect the project, ask (wizard) or take the flags,
 * write Ralph's files. Everything that can be refused (a missing PRD, an
 * already enabled project) is refused before anything is written.
 */
export async function runEnable(options: EnableOptions): Promise<EnableOutcome> {
  const { cwd } = options;
  const detected = detectProject(readProjectFiles(cwd), basename(cwd));
  let prd: SourceDocument | undefined = options.prdPath !== undefined ? readSourceDocument(options.prdPath, cwd) : undefined;
  const force = checkRalphState(cwd) === 'complete' ? await confirmOverwrite(options) : options.force;

  let projectName = options.projectName ?? detected.name;
  let verify: VerifyChoice | undefined;
  let maxCallsPerHour: number | undefined;
  let backend = options.backend;
  if (options.prompter) {
    const current = readCurrentMaxCalls(cwd);
    const currentBackend = readCurrentBackend(cwd);
    const answers = await runEnableWizard(options.prompter, {
      detected,
      prdCandidates: prd ? [] : findPrdFiles(cwd),
      currentMaxCalls: current,
      currentBackend,
      ...(options.backend !== undefined ? { backend: options.backend } : {}),
      ...(options.projectName !== undefined ? { projectName: options.projectName } : {}),
      ...(options.prdPath !== undefined ? { prdPath: options.prdPath } : {}),
      ...(options.verifyCommand !== undefined ? { verifyCommand: options.verifyCommand } : {}),
    });
    projectName = answers.projectName;
    if (answers.maxCallsPerHour !== current) maxCallsPerHour = answers.maxCallsPerHour;
    if (answers.backend !== currentBackend) backend = answers.backend;
    if (!prd && answers.prdPath !== undefined) prd = readSourceDocument(answers.prdPath, cwd);
    if (answers.verifyCommand !== '') verify = { command: answers.verifyCommand, enabled: true };
  } else if (options.verifyCommand !== undefined) {
    verify = { command: options.verifyCommand, enabled: true };
  } else if (detected.verifyCommand !== '') {
    verify = { command: detected.verifyCommand, enabled: false };
  }

  const request: EnableRequest = {
    projectDir: cwd,
    projectName,
    projectType: options.projectType ?? detected.type,
    framework: detected.framework,
    commands: detected.commands,
    force,
    ...(prd ? { prd } : {}),
    ...(verify ? { verify } : {}),
    ...(maxCallsPerHour !== undefined ? { maxCallsPerHour } : {}),
    ...(backend !== undefined ? { backend } : {}),
  };
  return { detected, request, result: enableProject(request) };
}

/** The --json document (the original ralph-enable-ci's fields, plus verify_command and the files changed in place). */
export function formatEnableJson(outcome: EnableOutcome): Record<string, unknown> {
  const { request, result } = outcome;
  return {
    success: true,
    project_name: request.projectName,
    project_type: request.projectType,
    framework: request.framework,
    files_created: result.layout.created,
    files_overwritten: result.layout.overwritten,
    files_backed_up: result.layout.backups,
    files_updated: result.layout.updated,
    files_skipped: result.layout.skipped,
    tasks_imported: result.tasksImported,
    verify_command: result.verifyCommand,
    backend: result.backend,
    message: 'Ralph enabled successfully',
  };
}

export function formatEnableReport(outcome: EnableOutcome): string {
  const { request, result } = outcome;
  const { layout } = result;
  const lines = [`Ralph enabled for ${request.projectName} (${request.projectType}${request.framework ? `, ${request.framework}` : ''})`];
  if (layout.created.length > 0) lines.push(`  created: ${layout.created.join(', ')}`);
  if (layout.overwritten.length > 0) lines.push(`  replaced (--force): ${layout.overwritten.join(', ')}`);
  if (layout.backups.length > 0) lines.push(`  your previous versions kept as: ${layout.backups.join(', ')}`);
  if (layout.updated.length > 0) lines.push(`  updated in place: ${layout.updated.join(', ')}`);
  if (layout.skipped.length > 0) lines.push(`  kept as they were: ${layout.skipped.join(', ')}`);
  if (request.prd) lines.push(`  tasks imported from ${request.prd.name}: ${result.tasksImported}`);
  lines.push(`  agent: ${agentDisplayName(result.backend)} (RALPH_BACKEND=${result.backend})`);
  if (result.verifyCommand !== '') lines.push(`  verify command: ${result.verifyCommand}`);
  else if (request.verify && !request.verify.enabled) lines.push(`  verify command proposed (commented out in .ralphrc): ${request.verify.command}`);
  for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
  lines.push(
    '',
    'Next steps:',
    '  1. Review .ralph/fix_plan.md and .ralph/PROMPT.md; put specifications in .ralph/specs/',
    '  2. Start the loop: ralph        watch it from another terminal: ralph-monitor',
  );
  return `${lines.join('\n')}\n`;
}
