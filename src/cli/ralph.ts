import { UsageError } from '../errors.js';
import { packageVersion } from '../infra/package-info.js';
import { parseRalphArgs } from './ralph-args.js';
import { processIo } from './program.js';
import { runMain } from './main.js';

/** Dispatches `ralph` to the command the flags ask for. Heavy modules load lazily. */
export async function runRalph(argv: readonly string[]): Promise<number> {
  const args = await parseRalphArgs(argv, packageVersion(), processIo);
  if (!args) return 0;
  const cwd = process.cwd();
  if (args.report !== undefined && args.action !== 'loop') {
    throw new UsageError(`--report goes with a loop run (ralph or ralph run), not --${args.action}.`, 'Run ralph --help to see every option.');
  }
  if (args.events !== undefined && args.action !== 'loop') {
    throw new UsageError(`--events goes with a loop run (ralph or ralph run), not --${args.action}.`, 'Run ralph --help to see every option.');
  }
  switch (args.action) {
    case 'loop': {
      const { runLoopCommand } = await import('./commands/loop-command.js');
      const { withRunReport, readTaskFile } = await import('./commands/loop-report.js');
      return withRunReport(args.report, cwd, async () => {
        if (args.task !== undefined) {
          const { parseTaskMode } = await import('./commands/task-mode.js');
          const { task, flags } = parseTaskMode(args.task, args.flags);
          if (args.taskFile !== undefined) task.text = readTaskFile(cwd, args.taskFile);
          return runLoopCommand({ args: { ...args, flags }, cwd, env: process.env, task });
        }
        return runLoopCommand({ args, cwd, env: process.env });
      });
    }
    case 'demo': {
      const { demoCommand } = await import('./commands/demo-command.js');
      return demoCommand(args);
    }
    case 'inspect': {
      const { inspectCommand } = await import('./commands/observe-commands.js');
      return inspectCommand(args, cwd);
    }
    case 'test': {
      const { runTestCommand } = await import('./commands/test-command.js');
      return runTestCommand(args.test ?? { tool: '', strict: false, params: {} }, cwd, process.env);
    }
    case 'mcp': {
      const { runMcpCommand } = await import('./commands/mcp-command.js');
      return runMcpCommand(cwd, process.env);
    }
    case 'queue': {
      const { runQueueCommand } = await import('./commands/queue-command.js');
      return runQueueCommand(args.queue ?? { sub: 'status', json: false }, cwd, process.env);
    }
    case 'dashboard': {
      const { dashboardCommand } = await import('./commands/dashboard-command.js');
      return dashboardCommand(args.dashboard ?? { host: '127.0.0.1', port: 0, open: true, allowRemote: false }, cwd);
    }
    case 'monitor': {
      const { monitorCommand } = await import('./commands/observe-commands.js');
      return monitorCommand(args, argv, cwd);
    }
    default: {
      const { runStateCommand } = await import('./commands/state-commands.js');
      return runStateCommand(args, cwd, process.env);
    }
  }
}

/** `ralph` through its parser: every flag, subcommand and error message (the fast path answers the rest). */
export const program = (): Promise<void> => runMain(runRalph, { json: true });
