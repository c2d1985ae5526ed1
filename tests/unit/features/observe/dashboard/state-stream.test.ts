import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardState } from '../../../../../src/features/observe/dashboard/dashboard-view.js';
import { createStateStream, MIN_STREAM_INTERVAL_MS } from '../../../../../src/features/observe/dashboard/state-stream.js';

/** The parts of a response the stream uses, recording what was written. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, string> = {};
  chunks: string[] = [];
  ended = false;
  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): this {
    this.ended = true;
    return this;
  }
}

const asResponse = (res: FakeResponse): ServerResponse => res as unknown as ServerResponse;

let reads = 0;
let notice: string | null = null;
const read = (): DashboardState => {
  reads += 1;
  return { takenAt: new Date(reads * 1000).toISOString(), project: { name: 'p', path: '/p' }, notice, loops: [] };
};

beforeEach(() => {
  vi.useFakeTimers();
  reads = 0;
  notice = null;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the state stream', () => {
  it('opens with the retry delay and the state now, then sends only changes', () => {
    const stream = createStateStream(read, 1000, () => undefined);
    const res = new FakeResponse();
    stream.add(asResponse(res));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.chunks[0]).toBe('retry: 1000\n\n');
    expect(res.chunks[1]).toMatch(/^data: \{"takenAt":"1970-01-01T00:00:01\.000Z","project":\{"name":"p","path":"\/p"\},"notice":null,"loops":\[\]\}\n\n$/);
    // A new read time alone is no change.
    vi.advanceTimersByTime(3000);
    expect(reads).toBe(4);
    expect(res.chunks).toHaveLength(2);
    notice = 'queue.json is not valid JSON';
    vi.advanceTimersByTime(1000);
    expect(res.chunks).toHaveLength(3);
    expect(res.chunks[2]).toContain('"notice":"queue.json is not valid JSON"');
    stream.close();
    expect(res.ended).toBe(true);
  });

  it(`never reads more often than every ${MIN_STREAM_INTERVAL_MS} ms, and keeps an idle stream open with a comment`, () => {
    const stream = createStateStream(read, 10, () => undefined);
    const res = new FakeResponse();
    stream.add(asResponse(res));
    expect(res.chunks[0]).toBe(`retry: ${MIN_STREAM_INTERVAL_MS}\n\n`);
    vi.advanceTimersByTime(MIN_STREAM_INTERVAL_MS - 1);
    expect(reads).toBe(1);
    vi.advanceTimersByTime(14 * MIN_STREAM_INTERVAL_MS + 1);
    expect(res.chunks.slice(2)).toEqual([': keepalive\n\n']);
    stream.close();
  });

  it('reads once per tick for every page, and stops reading when the last page leaves', () => {
    const stream = createStateStream(read, 1000, () => undefined);
    const one = new FakeResponse();
    const two = new FakeResponse();
    stream.add(asResponse(one));
    stream.add(asResponse(two));
    expect(stream.clients).toBe(2);
    notice = 'changed';
    vi.advanceTimersByTime(1000);
    expect(reads).toBe(3);
    expect(one.chunks.at(-1)).toBe(two.chunks.at(-1));
    one.emit('close');
    two.emit('close');
    expect(stream.clients).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(reads).toBe(3);
  });

  it('a read that throws is reported, and the stream goes on', () => {
    const errors: unknown[] = [];
    let fail = false;
    const stream = createStateStream(
      () => {
        if (fail) throw new Error('EACCES');
        return read();
      },
      1000,
      (e) => errors.push(e),
    );
    const res = new FakeResponse();
    stream.add(asResponse(res));
    fail = true;
    vi.advanceTimersByTime(1000);
    expect(errors).toHaveLength(1);
    fail = false;
    notice = 'back';
    vi.advanceTimersByTime(1000);
    expect(res.chunks.at(-1)).toContain('"notice":"back"');
    stream.close();
  });
});
