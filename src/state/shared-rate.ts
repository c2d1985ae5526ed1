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
 * moment both count. Waits and API retries stay each loop's own.
 */
export const SHARED_RATE_ENV = 'RALPH_SHARED_RATE_FILE';

const LOCK_TRIES = 200;
const LOCK_PAUSE_MS = 10;

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

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock<T>(file: string, action: () => T): T {
  const options = { lockfilePath: `${file}.lock`, realpath: false, stale: 10_000 };
  for (let attempt = 1; ; attempt += 1) {
    let release: () => void;
    try {
      release = lockfile.lockSync(file, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || attempt >= LOCK_TRIES) throw error;
      sleep(LOCK_PAUSE_MS);
      continue;
    }
    try {
      return action();
    } finally {
      release();
    }
  }
}

const sameCall = (a: CallRecord, b: CallRecord): boolean => a.at === b.at && a.tokens === b.tokens;

export class SharedRate {
  /** The shared calls as this loop last read them: what is new in its own state is what it adds. */
  private seen: CallRecord[] = [];

  constructor(private readonly file: string) {}

  private readState(): RateState {
    const read = readJsonFile(this.file, RATE_LIMIT.schema);
    return read.kind === 'ok' ? read.value : { calls: [] };
  }

  private readCalls(): CallRecord[] {
    return this.readState().calls;
  }

  /** Everyone's calls, with this loop's own wait and retry count. */
  view(own: RateState): RateState {
    this.seen = this.readCalls();
    return { ...own, calls: [...this.seen] };
  }

  /** Adds this loop's new calls (and the tokens of its latest) to the shared file; returns everyone's. */
  record(own: RateState, nowMs: number): RateState {
    return withLock(this.file, () => {
      const shared = this.readState();
      const calls = [...shared.calls];
      for (const call of own.calls) {
        if (this.seen.some((seen) => sameCall(seen, call))) continue;
        const index = calls.findIndex((shared) => shared.at === call.at);
        if (index >= 0) calls[index] = call;
        else calls.push(call);
      }
      const merged = pruneCalls({ calls }, nowMs).calls;
      // The project's own wait and retry count (from a loop run there) stay as they are.
      writeJsonAtomic(this.file, { ...shared, calls: merged });
      this.seen = merged;
      return { ...own, calls: [...merged] };
    });
  }
}
