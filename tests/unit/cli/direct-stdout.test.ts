import { describe, expect, it } from 'vitest';
import { writeAll, type WriteFrom } from '../../../src/cli/direct-stdout.js';

const text = new TextEncoder().encode('Usage: ralph [options] [command]\n');
const fail = (code: string): Error => Object.assign(new Error(code), { code });

/** A file descriptor that takes at most `chunk` bytes a call, then fails with `then` once `limit` bytes are in. */
function fakeFd(chunk: number, limit = Infinity, then = 'EAGAIN'): { write: WriteFrom; written: () => string } {
  const got: number[] = [];
  return {
    write: (bytes, offset) => {
      if (got.length >= limit) throw fail(then);
      const part = bytes.subarray(offset, offset + Math.min(chunk, limit - got.length));
      got.push(...part);
      return part.length;
    },
    written: () => new TextDecoder().decode(new Uint8Array(got)),
  };
}

describe('writeAll: the quick answers written straight to stdout', () => {
  it('writes every byte across partial writes', () => {
    const fd = fakeFd(5);
    writeAll(text, fd.write, () => expect.unreachable());
    expect(fd.written()).toBe('Usage: ralph [options] [command]\n');
  });

  it('hands what a full non-blocking pipe did not take to the stream, which waits for the reader', () => {
    const fd = fakeFd(4, 12);
    let rest = '';
    writeAll(text, fd.write, (bytes) => (rest = new TextDecoder().decode(bytes)));
    expect(fd.written() + rest).toBe('Usage: ralph [options] [command]\n');
  });

  it.each(['EPIPE', 'EIO'])('drops the rest quietly when the reader is gone (%s)', (code) => {
    const fd = fakeFd(4, 8, code);
    expect(() => writeAll(text, fd.write, () => expect.unreachable())).not.toThrow();
    expect(fd.written()).toBe('Usage: r');
  });

  it('reports any other write error', () => {
    const fd = fakeFd(4, 0, 'EBADF');
    expect(() => writeAll(text, fd.write, () => undefined)).toThrow('EBADF');
  });
});
