import { hostname } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import lockfile from 'proper-lockfile';
import { pruneCalls, type CallRecord, type RateState } from '../core/rate-limiter.js';
import { readJsonFile } from './document-store.js';
import { RATE_LIMIT } from './documents/rate-limit.js';
import { writeJsonAtomic } from './json-file.js';

/**
 * The hourly call limit of `ralph queue run`'s loops is one budget, not one
 * per loop: each loop counts its calls in the rate-limit state of the project
 * that started them (named by RALPH_SHARED_RATE_FILE), and reads everyone's
 * calls from it before each call. Every change there is a read-merge-write
 * under a lock beside the file, so two loops recording a call at the same
 * moment both count, and each call is known by its identity (never by its
 * time alone). Waits and API retries stay each loop's own.
 */
export const SHARED_RATE_ENV = 'RALPH_SHARED_RATE_FILE';

/** Waits for the lock beside the file: short pauses, asynchronous, about 10 s in all (a lock older than that is stale). */
const LOCK_OPTIONS = { realpath: false, stale: 10_000, retries: { retries: 100, minTimeout: 5, maxTimeout: 100, factor: 1.5 } };

/**
 * The shared file, when the environment names one that is the rate-limit
 * state of a project holding this one (the queue's worktrees sit inside it);
 * anything else is ignored rather than written.
 */
export function sharedRateFile(env: Readonly<Record<string, string | undefined>>, project: string): string | undefined {
  const named = env[SHARED_RATE_ENV]?.trim();
  if (!named || !isAbsolute(named)) return undefined;
  const file = resolve(named);
  if (!file.endsWith(`${sep}.ralph${sep}.rate_limit_state`)) return undefined;
  const owner = dirname(dirname(file));
  const inside = relative(owner, resolve(project));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return file;
}

/** This loop's name in the shared file: its host, process and start, so two loops never share one. */
function defaultLoopId(): string {
  return `${hostname()}:${process.pid}:${Date.now().toString(36)}`;
}

async function withLock<T>(file: string, action: () => T): Promise<T> {
  const release = await lockfile.lock(file, { ...LOCK_OPTIONS, lockfilePath: `${file}.lock` });
  try {
    return action();
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * One loop's view of the shared hourly window. Each of its calls carries an
 * identity, the loop's id and a sequence number: calls of two loops made in
 * the same millisecond are two calls, and the tokens a call used land on that
 * call alone. Writing takes the lock asynchronously, so a loop waiting for it
 * (another loop is writing) keeps answering signals and timers meanwhile.
 */
export class SharedRate {
  private sequence = 0;

  constructor(
    private readonly file: string,
    private readonly loopId: string = defaultLoopId(),
  ) {}

  /** The identity of this loop's next call. */
  nextCallId(): string {
    this.sequence += 1;
    return `${this.loopId}#${this.sequence}`;
  }

  private isMine(call: CallRecord): call is CallRecord & { id: string } {
    return call.id !== undefined && call.id.startsWith(`${this.loopId}#`);
  }

  private readState(): RateState {
    const read = readJsonFile(this.file, RATE_LIMIT.schema);
    return read.kind === 'ok' ? read.value : { calls: [] };
  }

  /** Everyone's calls, with this loop's own wait and retry count, and its calls not written there yet. */
  view(own: RateState): RateState {
    const shared = this.readState().calls;
    const written = new Set(shared.map((call) => call.id));
    const pending = own.calls.filter((call) => this.isMine(call) && !written.has(call.id));
    return { ...own, calls: [...shared, ...pending] };
  }

  /**
   * Claims a place in the shared window for this loop's next call, under the lock: the check
   * and the record are one step, so two loops that both see one call left cannot both make it.
   * Returns the call's identity, or undefined when the window is full (the loop waits, then asks again).
   */
  async reserve(nowMs: number, maxCallsPerHour: number): Promise<string | undefined> {
    return withLock(this.file, () => {
      const shared = this.readState();
      const live = pruneCalls(shared, nowMs).calls;
      if (maxCallsPerHour > 0 && live.length >= maxCallsPerHour) return undefined;
      const id = this.nextCallId();
      writeJsonAtomic(this.file, { ...shared, calls: [...live, { at: nowMs, tokens: 0, id }] });
      return id;
    });
  }

  /** Writes this loop's calls (new ones, and the tokens of its latest) into the shared file; returns everyone's. */
  async record(own: RateState, nowMs: number): Promise<RateState> {
    return withLock(this.file, () => {
      const shared = this.readState();
      const calls = [...shared.calls];
      for (const call of own.calls) {
        if (!this.isMine(call)) continue;
        const index = calls.findIndex((other) => other.id === call.id);
        if (index >= 0) calls[index] = call;
        else calls.push(call);
      }
      const merged = pruneCalls({ calls }, nowMs).calls;
      // The project's own wait and retry count (from a loop run there) stay as they are.
      writeJsonAtomic(this.file, { ...shared, calls: merged });
      return { ...own, calls: [...merged] };
    });
  }
}
