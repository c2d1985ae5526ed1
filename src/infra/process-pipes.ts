import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { BoundedTail } from '../core/bounded-tail.js';

/**
 * The pipes of a child process, handled the same way for every command Ralph
 * starts: output decoded as UTF-8 without splitting a character between
 * chunks, a bounded tail kept whatever the output's size, input written and
 * stdin closed, and a bounded wait for the last output once the command is gone.
 */

/** Called with each chunk: the text (whole characters only) and the bytes it came from. */
export type OutputListener = (text: string, bytes: Buffer) => void;

export interface OutputReader {
  tail: BoundedTail;
  /** Delivers what the decoder still holds (an incomplete character at the very end). */
  flush(): void;
}

export function readOutput(stream: Readable | null, tailChars: number, listener: OutputListener | undefined): OutputReader {
  const tail = new BoundedTail(tailChars);
  const decoder = new StringDecoder('utf8');
  stream?.on('data', (bytes: Buffer) => {
    const text = decoder.write(bytes);
    tail.write(text);
    listener?.(text, bytes);
  });
  return {
    tail,
    flush() {
      const rest = decoder.end();
      if (rest === '') return;
      tail.write(rest);
      listener?.(rest, Buffer.alloc(0));
    },
  };
}

/** Writes `input` and closes stdin; a command that exits without reading it is no error. */
export function feedInput(stdin: Writable | null, input: string | Buffer | undefined): void {
  if (!stdin) return;
  stdin.on('error', () => undefined);
  stdin.end(input ?? '');
}

/**
 * Waits for the pipes to deliver their last data. Once the command and
 * everything Ralph could find of it are gone, only a process that left the
 * tree and dropped the marker can still hold them open; after `ms` Ralph stops
 * reading, because an open pipe would keep it from going on (or exiting).
 */
export async function drainPipes(streams: ReadonlyArray<Readable | null>, ms: number): Promise<void> {
  const open = streams.filter((s): s is Readable => s !== null && !s.destroyed && !s.readableEnded);
  if (open.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const escape = new Promise<'escape'>((resolve) => {
    timer = setTimeout(() => resolve('escape'), ms);
  });
  const ended = Promise.all(open.map((s) => finished(s).catch(() => undefined)));
  const first = await Promise.race([ended, escape]);
  clearTimeout(timer);
  if (first === 'escape') for (const stream of open) stream.destroy();
}

/** What a spawn error means to the person reading it. */
export function describeSpawnFailure(error: unknown, file: string): string {
  const failure = error as NodeJS.ErrnoException;
  return failure.code === 'ENOENT' ? `command not found: ${file}` : String(failure.message ?? error);
}

/** setTimeout's ceiling: a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A time limit as a timer delay: whole milliseconds, at least 1, at most what a timer can wait. */
export function timerDelay(limitMs: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.floor(limitMs)));
}
