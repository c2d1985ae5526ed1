import { randomBytes } from 'node:crypto';
import type { SpawnedProcess } from '../core/process-selection.js';
import type { Marker } from './process-table.js';

/**
 * Every command Ralph starts for the agent or the verify gate carries this
 * variable. Processes inherit it whatever they do with groups and sessions, so
 * it finds a command's descendants after their parents are gone and they were
 * re-parented — which the process tree alone cannot.
 *
 * The value is `<run token>.<command>`: the run token names this Ralph process (the
 * watchdog and the next start end everything of a dead run by it), `<command>` (random)
 * one command, so ending one command never touches another that runs beside it, of
 * this loop or of another loop in the same process.
 */
export const RUN_MARKER = 'RALPH_RUN_TOKEN';

// Cache: this process's run token, drawn once: it names the process (the watchdog, the run file and the next start find
// a dead run's commands by it), so every loop of the process shares it by design; never invalidated.
let token: string | undefined;

/** This process's run token, made once. */
export function runToken(): string {
  token ??= `${process.pid}-${randomBytes(8).toString('hex')}`;
  return token;
}

/** A fresh marker for one command. */
export function nextCommandMarker(): Marker {
  return { name: RUN_MARKER, value: `${runToken()}.${randomBytes(6).toString('hex')}` };
}

/** The marker every command of a run carries (matched as a prefix). */
export function runMarker(runTokenValue: string = runToken()): Marker {
  return { name: RUN_MARKER, value: `${runTokenValue}.`, prefix: true };
}

export interface SpawnRecord extends SpawnedProcess {
  role: string;
}

type SpawnListener = (record: SpawnRecord) => void;
// Process-wide: the run guard of each loop hears of every command this process starts, as the run token (above) and the
// watchdog it feeds are the process's; a listener is removed by the function watchSpawns returns.
const listeners = new Set<SpawnListener>();

/** Tells `listener` about every command started from now on (the run file and the watchdog keep track of them). */
export function watchSpawns(listener: SpawnListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceSpawn(record: SpawnRecord): void {
  for (const listener of listeners) {
    try {
      listener(record);
    } catch {
      // Bookkeeping must never stop a command from running.
    }
  }
}
