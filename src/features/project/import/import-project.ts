import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, writeFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { errorMessage, ExitCode, RalphError } from '../../../errors.js';
import type { AgentBackend, ProcessRunner } from '../../../ports.js';
import { fileTimestamp, formatDuration } from '../../../core/time-format.js';
import { writeFileAtomic } from '../../../state/json-file.js';
import { commitInitialSetup, type RepositoryResult } from '../setup/project-repository.js';
import { deriveDisplayName } from '../setup/project-name.js';
import { createRalphLayout } from '../setup/ralph-layout.js';
import { readTemplate } from '../templates.js';
import { snapshotOutputs, findUnproducedOutputs, addStatusSection } from './conversion-check.js';
import { describeConversionFailure, describeDenials } from './conversion-outcome.js';
import { buildConversionPrompt, CONVERSION_OUTPUTS, CONVERSION_TOOLS } from './conversion-prompt.js';
import { readSourceDocument, type SourceDocument } from './read-source.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

export interface ImportOptions {
  /** The requirements document as given on the command line. */
  sourcePath: string;
  /** Absolute project directory. */
  projectDir: string;
  cwd: string;
  /** The agent that converts the document. */
  backend: AgentBackend;
  timeoutMs: number;
  /** Runs git for the first commit. */
  runner: ProcessRunner;
  signal?: AbortSignal;
  /** Progress lines for the user. */
  say?: (line: string) => void;
}

export interface ImportReport {
  projectDir: string;
  projectName: string;
  source: SourceDocument;
  repository: RepositoryResult;
  sessionId?: string;
  /** The first line of Claude's final message. */
  summary: string;
  /** Claude's raw output, inside the project. */
  logPath: string;
  /** PROMPT.md came back without the RALPH_STATUS block and got the template's status section. */
  statusSectionAdded: boolean;
}

/** File names the copied document may not take: they are Ralph's own. */
const RESERVED_NAMES = new Set([PROJECT_FILES.dir, PROJECT_FILES.ralphrc, '.gitignore', '.git', 'src']);

function assertTargetFree(dir: string): void {
  if (!existsSync(dir)) return;
  if (statSync(dir).isDirectory() && readdirSync(dir).length === 0) return;
  throw new RalphError(
    `${dir} already exists`,
    ExitCode.RuntimeError,
    'ralph-import creates a new project: give another name as the second argument, or use ralph-enable in an existing project.',
  );
}

/** Creates `dir`'s missing ancestors; returns the top-most one created (to remove on failure). */
function makeParents(dir: string): string | undefined {
  let first: string | undefined;
  for (let d = dir; !existsSync(d); d = dirname(d)) first = d;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new RalphError(`cannot create the folder ${dir}: ${errorMessage(error)}`, ExitCode.RuntimeError);
  }
  return first;
}

function moveIntoPlace(staging: string, target: string): void {
  try {
    renameSync(staging, target);
  } catch (error) {
    throw new RalphError(
      `cannot move the finished project to ${target}: ${errorMessage(error)}`,
      ExitCode.RuntimeError,
      'Did something create that folder meanwhile? Choose another name.',
    );
  }
}

/** Removes folders created by makeParents, deepest first, only while they are empty. */
function removeEmptyParents(deepest: string, top: string | undefined): void {
  if (top === undefined) return;
  for (let d = deepest; ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** Keeps Claude's output where the user can read it after the staging folder is gone. */
function rescueLog(logPath: string, cwd: string, name: string): string | undefined {
  const stderrPath = logPath.replace(/\.log$/, '.stderr.log');
  const parts = [logPath, stderrPath].filter((path) => existsSync(path) && statSync(path).size > 0);
  if (parts.length === 0) return undefined;
  for (const dir of [cwd, tmpdir()]) {
    const target = join(dir, `ralph-import-${name}-failed.log`);
    try {
      // What Claude printed on stderr explains most failures: it goes in the same kept file.
      writeFileSync(target, Buffer.concat(parts.map((path) => readFileSync(path))));
      return target;
    } catch {
      // Not writable here; try the next place.
    }
  }
  return undefined;
}

/**
 * ralph-import of one file: builds the project in a
 * hidden staging folder next to the target, lets Claude convert the document
 * there, checks that PROMPT.md, fix_plan.md and specs/requirements.md really
 * came from the conversion, commits, and only then renames the folder into
 * place. On any failure the staging folder is removed (Claude's output log is
 * kept next to the user), so no half-made project is left looking finished.
 * The user's document is only ever read.
 */
export async function importProject(options: ImportOptions): Promise<ImportReport> {
  const say = options.say ?? (() => undefined);
  const source = readSourceDocument(options.sourcePath, options.cwd);
  if (RESERVED_NAMES.has(source.name))
    throw new RalphError(`the document may not be called ${source.name}`, ExitCode.Usage, 'Rename it (for example prd.md) and run ralph-import again.');
  const target = options.projectDir;
  const projectName = deriveDisplayName(target);
  assertTargetFree(target);
  const parent = dirname(target);
  const createdParent = makeParents(parent);
  // Not mkdtemp: its 0700 mode would stick to the finished project. The name is still unguessable.
  const staging = join(parent, `.${projectName}.ralph-import-${randomBytes(6).toString('hex')}`);
  const logPath = join(staging, PROJECT_FILES.logsDir, `claude_import_${fileTimestamp(Date.now())}.log`);
  try {
    mkdirSync(staging);
    copyFileSync(source.path, join(staging, source.name));
    const layout = createRalphLayout(staging, { projectName, includeSrc: true, createReadme: true, gitignore: 'create-only' });
    const before = snapshotOutputs(staging);
    const prompt = buildConversionPrompt({ projectName, sourceName: source.name, sourceText: source.text, nonce: randomBytes(8).toString('hex') });
    say(`Converting ${source.name} with Claude Code (time limit ${formatDuration(options.timeoutMs / 1000)})…`);
    const request = {
      loop: 0,
      cwd: staging,
      prompt,
      loopContext: '',
      allowedTools: CONVERSION_TOOLS,
      timeoutMs: options.timeoutMs,
      outputLogPath: logPath,
      live: false,
    };
    const run = await options.backend.run(request, options.signal ?? new AbortController().signal);
    const failure = describeConversionFailure(run, options.timeoutMs);
    const denied = describeDenials(run.permissionDenials);
    const withDenials = (message: string): string => (denied ? `${message}. ${denied}` : message);
    if (failure) throw new RalphError(withDenials(failure.message), failure.exitCode, failure.hint);
    const missing = findUnproducedOutputs(before, snapshotOutputs(staging));
    if (missing.length > 0) throw new RalphError(withDenials(`the conversion did not produce ${missing.join(', ')}`), ExitCode.RuntimeError);

    const promptPath = join(staging, PROJECT_FILES.prompt);
    const repaired = addStatusSection(readFileSync(promptPath, 'utf8'), readTemplate('PROMPT.md'));
    if (repaired !== undefined) writeFileAtomic(promptPath, repaired);
    const files = [...new Set([...layout.created, ...CONVERSION_OUTPUTS, source.name])];
    const repository = await commitInitialSetup(staging, files, { newFolder: true, runner: options.runner });
    moveIntoPlace(staging, target);
    const report: ImportReport = {
      projectDir: target,
      projectName,
      source,
      repository,
      summary: (run.text.head.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 200),
      logPath: join(target, PROJECT_FILES.logsDir, basename(logPath)),
      statusSectionAdded: repaired !== undefined,
    };
    if (run.sessionId !== undefined) report.sessionId = run.sessionId;
    return report;
  } catch (error) {
    const kept = rescueLog(logPath, options.cwd, projectName);
    rmSync(staging, { recursive: true, force: true });
    removeEmptyParents(parent, createdParent);
    if (error instanceof RalphError) {
      const hint = [`Nothing was created; ${source.name} was not changed.`, kept ? `Claude's output: ${kept}` : '', error.hint ?? '']
        .filter(Boolean)
        .join('\n');
      throw new RalphError(`ralph-import failed: ${error.message}`, error.exitCode, hint, { cause: error });
    }
    throw error;
  }
}
