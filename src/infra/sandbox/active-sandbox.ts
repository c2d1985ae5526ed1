import type { CommandContainer } from '../process.js';

/**
 * The sandbox of this run, when it has one (--sandbox). Installed once by the loop before its
 * first call and removed at its end; every agent call of every backend is started through it
 * (src/backends/agent-process.ts), so no backend can forget it.
 */
let active: CommandContainer | undefined;

export function setActiveSandbox(container: CommandContainer | undefined): void {
  active = container;
}

export function activeSandbox(): CommandContainer | undefined {
  return active;
}
