import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { normalizeGateState, type GateState } from '../../core/verify-gate.js';
import { normalizeCheckpoint, type Checkpoint } from '../../infra/checkpoint-records.js';
import { isRecord, loadStateFile, writeJsonAtomic } from '../../state/json-file.js';
import { ToolError } from '../test-tools/tool-error.js';
import type { ToolPaths } from '../test-tools/tool-home.js';

/**
 * The MCP verify gate's memory between calls (its purpose:
 * the attempt count survives across tool calls). One file per gate id under
 * the test tools' home, holding the pure gate state of core/verify-gate.ts
 * plus what the chat set once and later calls inherit: the working
 * directory, checkpoint/rollback and the time limit, and the checkpoint the
 * current cycle started from. Calls on one gate are serialized by a lock; a
 * second call while a verify runs waits briefly, then is told the gate is busy.
 */

export interface StoredGate {
  version: 1;
  gate: GateState;
  cwd: string;
  checkpoint: boolean;
  rollback: boolean;
  timeoutSecs: number;
  /** The checkpoint the current cycle started from (created on its first call). */
  baseline: Checkpoint | null;
  updatedAt: number;
}

/** A file name for any gate id: readable part + hash, so distinct ids never share a file. */
export function gateFileName(gateId: string): string {
  const readable = gateId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
  return `${readable}-${createHash('sha256').update(gateId).digest('hex').slice(0, 10)}.json`;
}

/** The gate id used when the caller gives none: one gate per (directory, command). */
export function defaultGateId(cwd: string, command: string): string {
  return `verify-${createHash('sha256').update(`${cwd}\n${command}`).digest('hex').slice(0, 12)}`;
}

export function normalizeStoredGate(value: unknown): StoredGate | string {
  if (!isRecord(value) || value['version'] !== 1) return 'not a gate file';
  const gate = normalizeGateState(value['gate']);
  if (typeof gate === 'string') return gate;
  const { cwd, checkpoint, rollback, timeoutSecs, updatedAt } = value;
  if (typeof cwd !== 'string' || typeof checkpoint !== 'boolean' || typeof rollback !== 'boolean') return 'gate options are damaged';
  if (typeof timeoutSecs !== 'number' || !(timeoutSecs > 0) || typeof updatedAt !== 'number') return 'gate options are damaged';
  let baseline: Checkpoint | null = null;
  if (value['baseline'] !== null && value['baseline'] !== undefined) {
    const cp = normalizeCheckpoint(value['baseline'], 'baseline');
    if (typeof cp === 'string') return cp;
    baseline = cp;
  }
  return { version: 1, gate, cwd, checkpoint, rollback, timeoutSecs, baseline, updatedAt };
}

export interface GateHandle {
  stored: StoredGate | undefined;
  save(gate: StoredGate): void;
}

/** Runs `use` with the gate's file locked; a corrupt file is reset with a warning. */
export async function withGate<T>(paths: ToolPaths, gateId: string, warn: (message: string) => void, use: (handle: GateHandle) => Promise<T>): Promise<T> {
  mkdirSync(paths.gatesDir, { recursive: true });
  const file = join(paths.gatesDir, gateFileName(gateId));
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, { realpath: false, lockfilePath: `${file}.lock`, stale: 15_000, retries: { retries: 20, minTimeout: 50, maxTimeout: 250 } });
  } catch {
    throw new ToolError('gate_busy', `verify gate "${gateId}" is busy: another verify call on it is still running`, { gate_id: gateId }, 'Wait for that call to finish, then call verify again.');
  }
  try {
    const stored = loadStateFile(file, normalizeStoredGate, () => undefined, warn);
    return await use({ stored, save: (gate) => writeJsonAtomic(file, gate) });
  } finally {
    await release().catch(() => undefined);
  }
}
