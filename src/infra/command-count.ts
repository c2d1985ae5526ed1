/**
 * How many long commands (the agent, the verify command, a test run) have ended in this
 * process. Between two of Ralph's own git calls with the same count, nothing but Ralph ran:
 * what git reads of a repository has not changed behind its back, and what was checked of it
 * then still holds.
 */
// Cache: the generation of git-guard.ts's per-folder cache: any command that ended, in any loop of
// the process, makes the next git call check its folder again (more checks, never fewer); only ever grows.
let ended = 0;

export function noteCommandEnded(): void {
  ended += 1;
}

export function commandsEnded(): number {
  return ended;
}
