import { Option } from 'commander';
import { UsageError } from '../errors.js';
import { BACKEND_NAMES, describeBackendChoices, type BackendName } from '../backends/registry.js';
import { oneOf } from '../config/value-types.js';
import { PROJECT_TYPES } from '../features/project/enable/detect-project.js';
import { formatEnableJson, formatEnableReport, runEnable, type EnableOptions } from '../features/project/enable/enable-command.js';
import { createPrompter } from '../features/project/enable/prompts.js';
import { createBinaryCommand, parseArgv, parseFlagValue, processIo } from './program.js';
import type { JsonErrorBody } from './error-report.js';
import { runMain } from './main.js';

interface EnableFlags {
  from?: string[];
  prd?: string;
  force?: boolean;
  nonInteractive?: boolean;
  json?: boolean;
  quiet?: boolean;
  projectName?: string;
  projectType?: string;
  verifyCommand?: string;
  backend?: BackendName;
}

function readPrdPath(flags: EnableFlags): string | undefined {
  if (flags.from === undefined) return flags.prd;
  const [source = '', file, ...extra] = flags.from;
  if (source.toLowerCase() !== 'prd') {
    throw new UsageError(`invalid value for --from: "${source}"; expected prd (importing from beads or GitHub is not supported by this version)`);
  }
  if (extra.length > 0) throw new UsageError(`--from prd takes one file, got: ${[file, ...extra].join(' ')}`);
  if (file !== undefined && flags.prd !== undefined && file !== flags.prd)
    throw new UsageError(`--from prd ${file} and --prd ${flags.prd} name different files; give one`);
  const path = file ?? flags.prd;
  if (path === undefined) throw new UsageError('--from prd needs a file', 'Use --from prd FILE or --prd FILE.');
  return path;
}

function requireNonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${flag} must not be empty`);
  if (/[\r\n]/.test(value)) throw new UsageError(`${flag} must be a single line`);
  return value.trim();
}

/** What ralph-enable does to files the project already has. */
const ENABLE_NOTES = `
An existing .gitignore gets the Ralph state entries it lacks appended; an existing .ralphrc is kept
and only the values chosen in this run (verify command, calls per hour) are set in it.
`;

async function enableCommand(argv: string[]): Promise<number> {
  const program = createBinaryCommand('ralph-enable', processIo, {
    description:
      'Enable Ralph in an existing project: detect the project, then write .ralph/ (PROMPT.md, fix_plan.md, AGENT.md), .ralphrc and .gitignore entries. Asks on a terminal; --non-interactive (or no terminal) uses the detected values.',
    notes: ENABLE_NOTES,
    examples: [
      ['ralph-enable', 'answer a few questions on a terminal'],
      ['ralph-enable --prd docs/requirements.md', "start fix_plan.md from a document's tasks"],
      ['ralph-enable --non-interactive --backend codex --verify-command "npm test"', 'no questions: Codex CLI runs the loop, npm test checks it'],
      ['ralph-enable --json', 'for CI: one JSON document with the result'],
    ],
    exitCodes: [
      ['0', 'Ralph is enabled'],
      ['1', 'error, or the wizard was cancelled (Ctrl+D)'],
      ['2', 'already enabled (without --force) or usage error'],
      ['4', 'PRD file not found'],
    ],
  })
    .option('--from <source...>', 'import tasks: --from prd FILE (no agent call)')
    .option('--prd <file>', 'PRD or spec document whose tasks go into fix_plan.md (same as --from prd FILE)')
    .option('--force', "replace Ralph's files in .ralph/ even when Ralph is already enabled (.ralphrc and .gitignore are never replaced)")
    .option('--non-interactive', 'ask nothing; use the detected values and the flags')
    .option('--json', 'print one JSON document with the result on stdout (implies --non-interactive)')
    .option('--quiet', 'print nothing but errors')
    .option('--project-name <name>', 'project name (default: detected)')
    .option('--project-type <type>', `project type: ${PROJECT_TYPES.join(', ')} (default: detected)`)
    .option('--verify-command <cmd>', 'set VERIFY_COMMAND in .ralphrc (without it the detected command is only proposed, commented out)')
    .addOption(
      new Option('--backend <name>', `the agent the loop runs, set as RALPH_BACKEND in .ralphrc: ${describeBackendChoices('claude')}`).choices(BACKEND_NAMES),
    );
  if (!(await parseArgv(program, argv))) return 0;
  const flags = program.opts<EnableFlags>();
  const interactive = !flags.nonInteractive && !flags.json && process.stdin.isTTY === true;
  const prdPath = readPrdPath(flags);
  const projectName = requireNonEmpty('--project-name', flags.projectName);
  const verifyCommand = requireNonEmpty('--verify-command', flags.verifyCommand);
  const options: EnableOptions = {
    cwd: process.cwd(),
    force: flags.force === true,
    ...(prdPath !== undefined ? { prdPath } : {}),
    ...(projectName !== undefined ? { projectName } : {}),
    ...(flags.projectType !== undefined ? { projectType: parseFlagValue('--project-type', flags.projectType, oneOf(PROJECT_TYPES)) } : {}),
    ...(verifyCommand !== undefined ? { verifyCommand } : {}),
    ...(flags.backend !== undefined ? { backend: flags.backend } : {}),
  };
  const prompter = interactive ? createPrompter({ input: process.stdin, output: process.stderr }) : undefined;
  if (prompter) options.prompter = prompter;
  try {
    const outcome = await runEnable(options);
    if (flags.json) process.stdout.write(`${JSON.stringify(formatEnableJson(outcome), null, 2)}\n`);
    else if (!flags.quiet) process.stderr.write(formatEnableReport(outcome));
    return 0;
  } finally {
    prompter?.close();
  }
}

/** Its JSON error said {success, code, message} before every command shared one envelope; scripts still read those. */
const enableJsonErrorFields = (error: JsonErrorBody): Record<string, unknown> => ({ success: false, code: error.code, message: error.message });

/** `ralph-enable` through its parser (the fast path answers --version and --help). */
export const program = (): Promise<void> => runMain(enableCommand, { json: true, jsonErrorFields: enableJsonErrorFields });
