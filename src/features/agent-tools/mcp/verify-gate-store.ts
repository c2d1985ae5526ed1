import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import * as v from 'valibot';
import { loadDocument, saveDocument, type DocumentSpec } from '../../../state/document-store.js';
import { checkpointSchema } from '../../../state/documents/checkpoint.js';
import { record } from '../../../state/documents/lenient.js';
import { gateStateSchema } from '../../../state/documents/verify-gate.js';
import { ToolError } from '../test/tool-error.js';
import type { ToolPaths } from '../test/tool-home.js';

/**
 * The MCP verify gate's memory between calls (its purpose:
 * the attempt count survives across tool calls). One file per gate id under
 * the test tools' home, holding the pure gate state of core/verify-gate.ts
 * plus what the chat set once and later calls inherit: the working
 * directory, checkpoint/rollback and the time limit, and the checkpoint the
 * current cycle started from. Calls on one gate are serialized by a lock; a
 * second call while a verify runs waits briefly, then is told the gate is busy.
 */

const storedGateSchema = record(
  {
    version: v.literal(1, 'is not 1: not a gate file'),
    gate: gateStateSchema,
    cwd: v.string('is damaged'),
    checkpoint: v.boolean('is damaged'),
    rollback: v.boolean('is damaged'),
    timeoutSecs: v.pipe(v.number('is damaged'), v.gtValue(0, 'is damaged')),
    /** The checkpoint the current cycle started from (created on its first call). */
    baseline: v.optional(v.nullable(checkpointSchema), null),
    updatedAt: v.number('is damaged'),
  },
  'not a gate file',
);

export type StoredGate = v.InferOutput<typeof storedGateSchema>;

/** One gate's file; there is no gate until its first call saves one. */
export const STORED_GATE: DocumentSpec<StoredGate | undefined, string> = { path: (file) => file, schema: storedGateSchema, empty: () => undefined, version: 1 };

/** A file name for any gate id: readable part + hash, so distinct ids never share a file. */
export function gateFileName(gateId: string): string {
  const readable = gateId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
  return `${readable}-${createHash('sha256').update(gateId).digest('hex').slice(0, 10)}.json`;
}

/** The gate id used when the caller gives none: one gate per (directory, command). */
export function defaultGateId(cwd: string, command: string): string {
  return `verify-${createHash('sha256').update(`${cwd}\n${command}`).digest('hex').slice(0, 12)}`;
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
    release = await lockfile.lock(file, {
      realpath: false,
      lockfilePath: `${file}.lock`,
      stale: 15_000,
      retries: { retries: 20, minTimeout: 50, maxTimeout: 250 },
    });
  } catch {
    throw new ToolError(
      'gate_busy',
      `verify gate "${gateId}" is busy: another verify call on it is still running`,
      { gate_id: gateId },
      'Wait for that call to finish, then call verify again.',
    );
  }
  try {
    const stored = loadDocument(file, STORED_GATE, warn);
    return await use({ stored, save: (gate) => saveDocument(file, STORED_GATE, gate) });
  } finally {
    await release().catch(() => undefined);
  }
}
