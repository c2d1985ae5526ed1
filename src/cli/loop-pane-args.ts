import type { LoopPaneOptions } from '../features/observe/monitor/loop-pane.js';
import { UsageError } from '../errors.js';
import { createCommand, parseArgv, type CommandIo } from './program.js';

const NEEDS = 'the monitor loop pane needs --exit-file FILE --session NAME -- COMMAND...';
const STARTED_BY = 'It is started by ralph --monitor; run that instead.';

/**
 * Reads `--exit-file F --session S [--window W] [--socket K] -- command...`, the command
 * line `ralph --monitor` gives the left pane of its tmux session. Returns
 * undefined when help was printed.
 */
export async function parseLoopPaneArgs(argv: readonly string[], io: CommandIo): Promise<LoopPaneOptions | undefined> {
  const program = createCommand('monitor-loop-pane', io, {
    description: 'The left pane of ralph --monitor: runs the loop and keeps its exit code for the attached ralph --monitor.',
    examples: [
      ['ralph --monitor', 'starts this pane in its tmux session'],
      ['monitor-loop-pane --exit-file .ralph/.monitor_exit_code --session ralph-1 -- ralph --live', 'what ralph --monitor runs in the pane'],
    ],
    exitCodes: [
      ['0-143', "the loop's own exit code"],
      ['2', 'usage error'],
    ],
  })
    .option('--exit-file <file>', "where the loop's exit code is written")
    .option('--session <name>', 'the tmux session to close when the loop is done')
    .option('--window <id>', "close only this window (in the user's own session) instead of the session")
    .option('--socket <name>', 'the private tmux server (tmux -L) the session lives on')
    .argument('[command...]', 'the loop, after --');
  if (!(await parseArgv(program, argv))) return undefined;
  const { exitFile, session, window, socket } = program.opts<{ exitFile?: string; session?: string; window?: string; socket?: string }>();
  const command = program.processedArgs[0] as string[];
  if (!exitFile || !session || command.length === 0 || !argv.includes('--')) throw new UsageError(NEEDS, STARTED_BY);
  return { exitFile, session, command, ...(window ? { window } : {}), ...(socket ? { socket } : {}) };
}
