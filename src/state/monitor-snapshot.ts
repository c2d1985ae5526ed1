/**
 * What a watcher (`ralph-monitor`, the dashboard) reads of one loop's files at one moment:
 * read by src/features/monitor, drawn by src/ui. Data only, so both can name it.
 */
import type { CircuitState } from '../core/circuit-breaker.js';
import type { RunningLoopView } from '../core/queue/running-loop-view.js';
import type { StatusDocument } from '../core/status-model.js';
import type { JsonRead } from './document-store.js';
import type { ProgressDocument } from './documents/progress.js';
import type { PendingStop } from './stop-request.js';

/** The circuit breaker file (.ralph/.circuit_breaker_state), as the loop writes it. */
export type CircuitDocument = CircuitState;

export type StatusRead = { kind: 'ok'; doc: StatusDocument } | { kind: 'missing' } | { kind: 'corrupt'; reason: string };

/** Everything the dashboard shows, read from .ralph/ at one moment. */
export interface MonitorSnapshot {
  /** When the files were read (ISO). */
  takenAt: string;
  projectDir: string;
  status: StatusRead;
  progress: JsonRead<ProgressDocument>;
  circuit: JsonRead<CircuitDocument>;
  /** From .ralph/.claude_session_id, else status.json session_id. */
  sessionId: string | null;
  /** The last lines of .ralph/logs/ralph.log, oldest first. */
  logLines: string[];
  /** Whether status.json's pid is a live process; null when unknown or not applicable. */
  loopAlive: boolean | null;
  /** The loops of a `ralph queue run` working in this project's worktrees, if any. */
  queueLoops?: RunningLoopView[];
  /** A stop asked for that the loop has not acted on yet (null: none). */
  stopRequest?: PendingStop | null;
}
