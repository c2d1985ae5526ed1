import { ExitCode, RalphError } from '../../errors.js';

/**
 * The sandbox is the process's, not one loop's: starting it moves the process into the
 * project (process.chdir) and installs it where Ralph's git calls look (active-sandbox.ts).
 * One loop of a process may hold it at a time; a second sandboxed loop in the same process
 * (two runLoop calls of one program) is refused rather than left to take the first one's.
 */
// Process-wide: whether a loop of this process holds the sandbox (see above).
let held = false;

/** Claims the process's sandbox for one loop; the returned function gives it back. */
export function claimProcessSandbox(project: string): () => void {
  if (held)
    throw new RalphError(
      `Another loop of this process runs sandboxed already: the sandbox of ${project} cannot start beside it.`,
      ExitCode.RuntimeError,
      'Run sandboxed loops one after the other in a process, or each in a process of its own (ralph --sandbox, or a child process per loop).',
    );
  held = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held = false;
  };
}
