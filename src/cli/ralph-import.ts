import { commandLine, integer } from '../config/value-types.js';
import { ExitCode, RalphError, UsageError } from '../errors.js';
import { importProject } from '../features/project/import/import-project.js';
import { formatImportReport } from '../features/project/import/import-report.js';
import { deriveProjectName, resolveProjectDir } from '../features/project/setup/project-name.js';
import { createDefaultDeps } from './deps.js';
import { runMain } from './main.js';
import { buildAgentEnv } from '../core/agent-env.js';
import { createBinaryCommand, parseArgv, parseFlagValue, processIo } from './program.js';
import { createLogger } from '../ui/logger.js';
import { systemClock } from '../infra/system-clock.js';
import { createConversionBackend } from '../backends/claude/create-claude-backend.js';
import { claudeCredentials } from '../backends/claude/claude-credentials.js';
import { currentRedactors } from '../state/redaction.js';
import { showingProgress } from './agent-call-progress.js';

function readClaudeCommand(env: NodeJS.ProcessEnv): string[] {
  const raw = env['CLAUDE_CODE_CMD'];
  if (raw === undefined || raw.trim() === '') return ['claude'];
  const parsed = commandLine.parse(raw);
  if (!parsed.ok) throw new UsageError(`environment variable CLAUDE_CODE_CMD="${raw}" is invalid; expected ${parsed.expected}`);
  return parsed.value;
}

function readTimeoutMs(flag: string | undefined): number {
  return parseFlagValue('--timeout', flag ?? '15', integer(1, 120, 'minutes')) * 60_000;
}

/** How ralph-import runs Claude Code and what it leaves behind. */
const IMPORT_NOTES = `
Claude is run as $CLAUDE_CODE_CMD (default: claude). The project is built in a hidden folder and moved
into place only when the conversion produced all three files; on failure nothing is left behind except
Claude's output log (ralph-import-<name>-failed.log in the current folder).
`;

async function importCommand(argv: string[]): Promise<number> {
  const program = createBinaryCommand('ralph-import', processIo, {
    description:
      'Turn a requirements document (PRD, spec; .md, .txt, .json or any text file) into a new Ralph project, using Claude Code to write .ralph/PROMPT.md, .ralph/fix_plan.md and .ralph/specs/requirements.md.',
    notes: IMPORT_NOTES,
    examples: [
      ['ralph-import requirements.md', 'a new project ./requirements from the document'],
      ['ralph-import docs/prd.txt todo-app', 'choose the project folder'],
      ['ralph-import spec.md --timeout 30', 'give Claude up to 30 minutes for a long document'],
    ],
    exitCodes: [
      ['0', 'the project was created'],
      ['1', 'the conversion failed, or another error'],
      ['2', 'usage error, or Claude Code not found'],
      ['4', 'document not found'],
      ['130/143', 'interrupted'],
    ],
  })
    .argument('<file>', 'the requirements document (it is read, never changed)')
    .argument('[name]', "project folder to create (default: the document's name without extension)")
    .option('--timeout <minutes>', 'time limit of the conversion, 1-120 minutes', '15');
  if (!(await parseArgv(program, argv))) return 0;
  const [file, name] = program.processedArgs as [string, string | undefined];
  const { timeout } = program.opts<{ timeout?: string }>();
  const env = process.env;
  const command = readClaudeCommand(env);
  const limitMs = readTimeoutMs(timeout);
  const cwd = process.cwd();
  const projectDir = resolveProjectDir(name ?? deriveProjectName(file), cwd);

  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    received = signal;
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const backend = showingProgress(
      createConversionBackend(
        command,
        buildAgentEnv(env, [], claudeCredentials(env)).env,
        createLogger({ clock: systemClock, verbose: false }),
        () => currentRedactors().bytes,
      ),
      {
        tty: process.stderr.isTTY === true,
        write: (text) => process.stderr.write(text),
        ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
      },
      systemClock,
    );
    const report = await importProject({
      sourcePath: file,
      projectDir,
      cwd,
      backend,
      timeoutMs: limitMs,
      runner: createDefaultDeps().runner,
      signal: controller.signal,
      say: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(formatImportReport(report, cwd));
    return 0;
  } catch (error) {
    if (received === 'SIGTERM' && error instanceof RalphError) throw new RalphError(error.message, ExitCode.Sigterm, error.hint);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `ralph-import` through its parser (the fast path answers --version and --help). */
export const program = (): Promise<void> => runMain(importCommand);
