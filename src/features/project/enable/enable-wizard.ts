import { BACKEND_NAMES, backendEntry, type BackendName } from '../../../backends/registry.js';
import type { ProjectInfo } from './detect-project.js';
import type { Prompter } from './prompts.js';

export interface WizardContext {
  detected: ProjectInfo;
  /** Likely PRD files found in the project (relative paths). */
  prdCandidates: readonly string[];
  /** Values given as flags are not asked again. */
  projectName?: string;
  prdPath?: string;
  verifyCommand?: string;
  /** MAX_CALLS_PER_HOUR currently in effect (the existing .ralphrc, else the default). */
  currentMaxCalls: number;
  /** RALPH_BACKEND currently in effect, offered as the default agent. */
  currentBackend: BackendName;
  /** Given with --backend: not asked again. */
  backend?: BackendName;
}

export interface WizardAnswers {
  projectName: string;
  maxCallsPerHour: number;
  prdPath?: string;
  /** '' = no verify command. */
  verifyCommand: string;
  backend: BackendName;
}

export const MAX_CALLS_RANGE = { min: 1, max: 100_000 } as const;

/** The interactive part of ralph-enable (what was found, task sources, settings), over any Prompter. */
export async function runEnableWizard(prompter: Prompter, context: WizardContext): Promise<WizardAnswers> {
  const { detected } = context;
  prompter.say('Ralph enable: set up Ralph in this project');
  prompter.say(
    `Detected: ${detected.type}${detected.framework ? ` (${detected.framework})` : ''}, name "${detected.name}"${detected.packageManager ? `, ${detected.packageManager}` : ''}`,
  );
  for (const note of detected.notes) prompter.say(`Note: ${note}`);

  const projectName = context.projectName ?? (await prompter.ask('Project name', detected.name));
  const maxCallsPerHour = await prompter.askInteger('Maximum agent calls per hour', { defaultValue: context.currentMaxCalls, ...MAX_CALLS_RANGE });

  let prdPath = context.prdPath;
  if (prdPath === undefined && context.prdCandidates.length > 0) {
    const choices = [...context.prdCandidates.map((p) => `Import tasks from ${p}`), 'Start with the default task list'];
    const index = await prompter.select('Tasks for .ralph/fix_plan.md:', choices, choices.length - 1);
    prdPath = context.prdCandidates[index];
  }

  let verifyCommand = context.verifyCommand;
  if (verifyCommand === undefined) {
    const explain = 'Ralph runs the verify command after each iteration and accepts "done" only when it passes.';
    prompter.say(explain);
    if (detected.verifyCommand !== '' && (await prompter.confirm(`Use "${detected.verifyCommand}" as the verify command?`, true))) {
      verifyCommand = detected.verifyCommand;
    } else {
      verifyCommand = (await prompter.ask('Verify command (leave empty for none)', '')).trim();
    }
  }

  const backend = context.backend ?? (await askBackend(prompter, context.currentBackend));

  const answers: WizardAnswers = { projectName: projectName.trim() || detected.name, maxCallsPerHour, verifyCommand, backend };
  if (prdPath !== undefined) answers.prdPath = prdPath;
  return answers;
}

/** The agent question, last so that every earlier answer keeps its place for scripted input. */
async function askBackend(prompter: Prompter, current: BackendName): Promise<BackendName> {
  const choices = BACKEND_NAMES.map((name) => {
    const { displayName, instructionsFile } = backendEntry(name);
    return `${name}: ${displayName}${instructionsFile ? ` (reads ${instructionsFile})` : ''}`;
  });
  const index = await prompter.select('Agent the loop runs:', choices, BACKEND_NAMES.indexOf(current));
  return BACKEND_NAMES[index] ?? current;
}
