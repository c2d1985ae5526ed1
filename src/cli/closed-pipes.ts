import { prepareWhenCreated } from './output-streams.js';

/**
 * A reader that goes away (`ralph --help | head -1`, a closed terminal, a
 * monitor pipe that was killed) is not an error of Ralph's: what it would have
 * shown is dropped and the command carries on — a running loop keeps working
 * and keeps writing its files. Without a listener, Node turns the EPIPE of the
 * next write into an uncaught exception that kills the process mid-iteration.
 */

type OutputStream = NodeJS.WriteStream | NodeJS.WritableStream;

// Cache: the streams that already carry the closed-reader listener, so it is added once however many
// loops or commands ask; an entry goes with its stream (WeakSet).
const guarded = new WeakSet<object>();

/** Error codes that mean "nobody is reading any more". */
const READER_GONE = new Set(['EPIPE', 'EIO', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export function isReaderGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && READER_GONE.has(code);
}

/**
 * Makes writes to `stream` harmless once its reader is gone: the error is
 * swallowed and later writes are dropped instead of queued. Any other write
 * error is treated the same way: the stream is unusable after it, and the
 * terminal is never worth stopping a loop for.
 */
export function tolerateClosedReader(stream: OutputStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  let gone = false;
  stream.on('error', () => {
    gone = true;
  });
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  (stream as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]): boolean => {
    if (gone) {
      // Call back like a successful write, so nothing waits for a drain that never comes.
      const callback = args.find((a) => typeof a === 'function') as ((error?: Error | null) => void) | undefined;
      if (callback) queueMicrotask(() => callback(null));
      return true;
    }
    try {
      return write(...args);
    } catch (error) {
      if (!isReaderGone(error)) throw error;
      gone = true;
      return true;
    }
  };
}

/** Both output streams of this process, from the moment each is first used. */
export function tolerateClosedOutput(): void {
  prepareWhenCreated('stdout', tolerateClosedReader);
  prepareWhenCreated('stderr', tolerateClosedReader);
}
