import { runDemo } from '../../features/project/demo/run-demo.js';
import type { RalphArgs } from '../ralph-args.js';
import { runLoopCommand } from './loop-command.js';

/** `ralph demo [--keep]`: the whole loop on the mock backend in a temporary project. */
export function demoCommand(args: RalphArgs): Promise<number> {
  return runDemo({
    keep: args.keep === true,
    write: (text) => process.stdout.write(text),
    runLoop: (projectDir, flags) => runLoopCommand({ args: { ...args, action: 'loop', flags, json: false, dryRun: false }, cwd: projectDir, env: process.env }),
  });
}
