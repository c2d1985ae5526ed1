import { resolveProjectDir } from '../features/project/setup/project-name.js';
import { formatSetupReport, setupProject } from '../features/project/setup/setup-project.js';
import { Option } from 'commander';
import { BACKEND_NAMES, describeBackendChoices, type BackendName } from '../backends/registry.js';
import { createDefaultDeps } from './deps.js';
import { runMain } from './main.js';
import { createBinaryCommand, parseArgv, processIo } from './program.js';

/** ralph-setup <name>: create a new Ralph project. */
async function runSetup(argv: string[]): Promise<number> {
  const program = createBinaryCommand('ralph-setup', processIo, {
    description:
      'Create a new Ralph project: .ralph/ with PROMPT.md, fix_plan.md and AGENT.md, .ralphrc, .gitignore, src/, a README and a first git commit. Existing files are never overwritten.',
    examples: [
      ['ralph-setup my-app', 'a new project in ./my-app'],
      ['ralph-setup "clients/acme web"', 'nested folders and spaces are fine'],
      ['ralph-setup ~/code/todo-app', 'an absolute path; existing files there are never overwritten'],
      ['ralph-setup my-app --backend mock', 'choose the agent: RALPH_BACKEND in .ralphrc, and its instructions file'],
    ],
    exitCodes: [
      ['0', 'the project is ready'],
      ['1', 'it could not be created (permissions, git)'],
      ['2', 'usage error'],
    ],
  })
    .argument('[name]', 'project folder to create or use (spaces and nested paths such as a/b/c are fine)', 'my-project')
    .addOption(new Option('--backend <name>', `the agent the loop runs: ${describeBackendChoices('claude')}`).choices(BACKEND_NAMES));
  if (!(await parseArgv(program, argv))) return 0;
  const [name] = program.processedArgs as [string];
  const { backend } = program.opts<{ backend?: BackendName }>();
  const cwd = process.cwd();
  const projectDir = resolveProjectDir(name, cwd);
  process.stderr.write(`Setting up Ralph project: ${name}\n`);
  const report = await setupProject(projectDir, createDefaultDeps().runner, backend);
  // The result is what the command was run for: stdout, so a script can keep it apart from progress.
  process.stdout.write(formatSetupReport(report, cwd));
  return 0;
}

/** `ralph-setup` through its parser (the fast path answers --version and --help). */
export const program = (): Promise<void> => runMain(runSetup);
