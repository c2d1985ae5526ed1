import type { CommandContainer } from '../process.js';

/**
 * Whether this run's agent is contained (--sandbox), for Ralph's own git calls: while it is,
 * a change to the repository's configuration files means the agent got around the sandbox
 * (src/infra/git-guard.ts). Installed once by the loop before its first call and removed at its
 * end. The agent's calls do not read it: the backend gets the sandbox in its BackendContext.
 */
// Process-wide: the sandbox runtime is one per process (its manager is a singleton; starting it moves the process into
// the project and marks its environment), so a second loop in the process cannot have a sandbox of its own; only Ralph's
// own git calls, which carry no loop's context, read this. Set by the loop that starts the sandbox, cleared when it stops.
let active: CommandContainer | undefined;

export function setActiveSandbox(container: CommandContainer | undefined): void {
  active = container;
}

export function activeSandbox(): CommandContainer | undefined {
  return active;
}
