import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { errorMessage, ExitCode, RalphError } from '../../../errors.js';
import { writeFileAtomic } from '../../../state/json-file.js';
import { ralphrcTemplate, readTemplate, renderTemplate } from '../templates.js';
import { createFileExclusive, keepBackup, replaceFileKeepingMode } from './file-writes.js';
import { mergeGitignore } from './gitignore-merge.js';
import { setRalphrcValue } from './ralphrc-values.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

/** Commands written into AGENT.md; empty = not known. */
export interface ProjectCommands {
  install: string;
  build: string;
  test: string;
  run: string;
}

/** A .ralphrc value the user chose in this run (applied to a new and an existing .ralphrc). */
export interface RalphrcSetting {
  key: string;
  value: string;
  /** Written as `# KEY=value`: documented, not in effect. */
  commented?: boolean;
  note?: string[];
}

export interface LayoutOptions {
  projectName: string;
  /** `typescript`, `python`, … or `generic` (default). */
  projectType?: string;
  framework?: string;
  /** Create `src/` (ralph-setup). */
  includeSrc?: boolean;
  /** Create README.md when there is none (ralph-setup). */
  createReadme?: boolean;
  /** Overwrite Ralph's own files in .ralph/ (PROMPT.md, fix_plan.md, AGENT.md). */
  force?: boolean;
  /** `create-only`: write .gitignore only when absent; `merge`: also add missing Ralph entries to an existing one. */
  gitignore?: 'create-only' | 'merge';
  commands?: Partial<ProjectCommands>;
  /** fix_plan.md content replacing the template (imported tasks). */
  fixPlan?: string;
  /** Values the user chose in this run: written into a new .ralphrc and set in an existing one. */
  ralphrcSettings?: readonly RalphrcSetting[];
  /** Values Ralph proposes: written into a new .ralphrc only, never into the user's existing one. */
  ralphrcProposals?: readonly RalphrcSetting[];
  /**
   * The instructions file the chosen agent's CLI reads by itself (AGENTS.md, GEMINI.md, …):
   * created at the project root, pointing at .ralph/AGENT.md, when the project has none.
   */
  instructionsFile?: string;
}

/** What the agent's own instructions file says: where Ralph keeps the project's commands and lessons. */
export const INSTRUCTIONS_POINTER = [
  '# Agent instructions',
  '',
  "This project's build, test and run commands, and what was learned while working on it, are in",
  '`.ralph/AGENT.md`. Read it before you start, and keep it up to date.',
  '',
].join('\n');

/** Paths relative to the project directory, `/`-separated. */
export interface LayoutResult {
  created: string[];
  overwritten: string[];
  /** Where each replaced file was kept (`.ralph/PROMPT.md.bak`, …). */
  backups: string[];
  /** Existing user files Ralph changed in place (.gitignore entries added, .ralphrc values set). */
  updated: string[];
  skipped: string[];
}

export const LAYOUT_DIRS = [
  `${PROJECT_FILES.specs}/stdlib`,
  `${PROJECT_FILES.dir}/examples`,
  PROJECT_FILES.logsDir,
  `${PROJECT_FILES.dir}/docs/generated`,
] as const;

const NOT_DETECTED = '# not known yet: add the command here';

function describeType(type: string, framework: string | undefined): string {
  return framework ? `${type}, ${framework}` : type;
}

function makeDirectory(path: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new RalphError(
      `cannot create the folder ${path}: ${errorMessage(error)}`,
      ExitCode.RuntimeError,
      'Check that no file has that name and that you may write there.',
    );
  }
}

/** The contents of every file the layout writes, rendered from the installed templates. */
export function renderLayoutFiles(options: LayoutOptions): {
  prompt: string;
  fixPlan: string;
  agent: string;
  ralphrc: string;
  gitignore: string;
  readme: string;
} {
  const type = options.projectType ?? 'generic';
  const commands = options.commands ?? {};
  const command = (value: string | undefined): string => (value && value.trim() !== '' ? value : NOT_DETECTED);
  let ralphrc = ralphrcTemplate();
  ralphrc = setRalphrcValue(ralphrc, 'PROJECT_NAME', options.projectName);
  ralphrc = setRalphrcValue(ralphrc, 'PROJECT_TYPE', type);
  for (const setting of [...(options.ralphrcProposals ?? []), ...(options.ralphrcSettings ?? [])]) ralphrc = applySetting(ralphrc, setting);
  return {
    prompt: renderTemplate(readTemplate('PROMPT.md'), { PROJECT_NAME: options.projectName, PROJECT_TYPE: describeType(type, options.framework) }),
    fixPlan: options.fixPlan ?? readTemplate('fix_plan.md'),
    agent: renderTemplate(readTemplate('AGENT.md'), {
      INSTALL_COMMAND: command(commands.install),
      BUILD_COMMAND: command(commands.build),
      TEST_COMMAND: command(commands.test),
      RUN_COMMAND: command(commands.run),
    }),
    ralphrc,
    gitignore: readTemplate('gitignore'),
    readme: `# ${options.projectName}\n`,
  };
}

function applySetting(text: string, setting: RalphrcSetting): string {
  const options = { ...(setting.commented ? { commented: true } : {}), ...(setting.note ? { note: setting.note } : {}) };
  return setRalphrcValue(text, setting.key, setting.value, options);
}

/**
 * Creates Ralph's files and folders in `projectDir`. Never overwrites a
 * file the user owns: README.md, .gitignore and .ralphrc are created only when
 * absent (an existing .gitignore may get Ralph's missing entries appended, an
 * existing .ralphrc gets only the settings chosen in this run); Ralph's files
 * in .ralph/ are replaced only with `force`. Shared by setup, enable, import
 * and the demo.
 */
/** The entry is a regular file whose content is already `content` (a symlink never is). */
function holdsExactly(path: string, content: string): boolean {
  return lstatSync(path).isFile() && readFileSync(path, 'utf8') === content;
}

export function createRalphLayout(projectDir: string, options: LayoutOptions): LayoutResult {
  const result: LayoutResult = { created: [], overwritten: [], updated: [], skipped: [], backups: [] };
  const files = renderLayoutFiles(options);
  makeDirectory(projectDir);
  for (const dir of LAYOUT_DIRS) makeDirectory(join(projectDir, dir));
  if (options.includeSrc) makeDirectory(join(projectDir, 'src'));

  const writeRalphFile = (rel: string, content: string): void => {
    const path = join(projectDir, rel);
    if (createFileExclusive(path, content)) result.created.push(rel);
    else if (options.force && !holdsExactly(path, content)) {
      // A customised file is never replaced without a copy the user can go back to.
      const backup = keepBackup(path);
      writeFileAtomic(path, content);
      result.overwritten.push(rel);
      result.backups.push(relative(projectDir, backup));
    } else result.skipped.push(rel);
  };
  writeRalphFile(PROJECT_FILES.prompt, files.prompt);
  writeRalphFile(PROJECT_FILES.fixPlan, files.fixPlan);
  writeRalphFile(PROJECT_FILES.agent, files.agent);
  // The user's own instructions file stays as it is, even with --force.
  if (options.instructionsFile !== undefined) {
    if (createFileExclusive(join(projectDir, options.instructionsFile), INSTRUCTIONS_POINTER)) result.created.push(options.instructionsFile);
    else result.skipped.push(options.instructionsFile);
  }

  const rcPath = join(projectDir, PROJECT_FILES.ralphrc);
  if (createFileExclusive(rcPath, files.ralphrc, 0o600)) result.created.push(PROJECT_FILES.ralphrc);
  else if (options.ralphrcSettings && options.ralphrcSettings.length > 0) {
    const before = readFileSync(rcPath, 'utf8');
    const after = options.ralphrcSettings.reduce(applySetting, before);
    if (after !== before) {
      replaceFileKeepingMode(rcPath, after);
      result.updated.push(PROJECT_FILES.ralphrc);
    } else result.skipped.push(PROJECT_FILES.ralphrc);
  } else result.skipped.push(PROJECT_FILES.ralphrc);

  const ignorePath = join(projectDir, '.gitignore');
  if (createFileExclusive(ignorePath, files.gitignore)) result.created.push('.gitignore');
  else if (options.gitignore === 'merge') {
    const merged = mergeGitignore(readFileSync(ignorePath, 'utf8'), files.gitignore);
    if (merged) {
      replaceFileKeepingMode(ignorePath, merged.text);
      result.updated.push('.gitignore');
    } else result.skipped.push('.gitignore');
  } else result.skipped.push('.gitignore');

  if (options.createReadme) {
    if (createFileExclusive(join(projectDir, 'README.md'), files.readme)) result.created.push('README.md');
    else result.skipped.push('README.md');
  }
  return result;
}
