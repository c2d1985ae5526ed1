import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeSpawnFailure, drainPipes, feedInput, readOutput, timerDelay } from '../../../src/infra/process-pipes.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('readOutput', () => {
  it('never splits a character between two chunks, and hands over the bytes as they came', () => {
    const stream = new PassThrough();
    const seen: Array<[string, Buffer]> = [];
    const reader = readOutput(stream, 100, (text, bytes) => seen.push([text, bytes]));
    const e = Buffer.from('é');
    stream.write(Buffer.concat([Buffer.from('caf'), e.subarray(0, 1)]));
    stream.write(e.subarray(1));
    expect(seen.map(([text]) => text)).toEqual(['caf', 'é']);
    expect(Buffer.concat(seen.map(([, bytes]) => bytes))).toEqual(Buffer.from('café'));
    expect(reader.tail.value()).toBe('café');
  });

  it('keeps only the last characters in its tail', () => {
    const stream = new PassThrough();
    const reader = readOutput(stream, 5, undefined);
    for (let i = 0; i < 10; i += 1) stream.write(`chunk ${i}\n`);
    expect(reader.tail.value()).toBe('nk 9\n');
    expect(reader.tail.truncated).toBe(true);
  });

  it('flush delivers an incomplete character left at the very end, and nothing when there is none', () => {
    const stream = new PassThrough();
    const texts: string[] = [];
    const reader = readOutput(stream, 100, (text) => texts.push(text));
    stream.write(Buffer.from('é').subarray(0, 1));
    reader.flush();
    reader.flush();
    expect(texts).toEqual(['', '\ufffd']);
  });
});

describe('feedInput', () => {
  it('writes the input and ends stdin', async () => {
    const stdin = new PassThrough();
    feedInput(stdin, 'hello');
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
  });

  it('a command that closed stdin without reading it is no error', () => {
    const stdin = new Writable({ write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    expect(() => feedInput(stdin, 'ignored')).not.toThrow();
  });
});

describe('drainPipes', () => {
  it('returns at once when the pipes are already closed', async () => {
    const ended = new PassThrough();
    ended.resume();
    ended.end();
    await new Promise((resolve) => ended.once('end', resolve));
    const destroyed = new PassThrough();
    destroyed.destroy();
    await drainPipes([ended, destroyed, null], 60_000);
  });

  it('waits for a pipe that is still delivering its last data', async () => {
    const stream = new PassThrough();
    stream.resume();
    const draining = drainPipes([stream], 60_000);
    stream.end('last words');
    await draining;
    expect(stream.destroyed || stream.readableEnded).toBe(true);
  });

  it('stops reading a pipe held open past the limit', async () => {
    vi.useFakeTimers();
    const held = new PassThrough();
    held.resume();
    const draining = drainPipes([held], 250);
    await vi.advanceTimersByTimeAsync(250);
    await draining;
    expect(held.destroyed).toBe(true);
  });
});

describe('describeSpawnFailure', () => {
  it('says a missing executable is a command not found, and keeps any other reason', () => {
    expect(describeSpawnFailure(Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' }), 'claude')).toBe('command not found: claude');
    expect(describeSpawnFailure(Object.assign(new Error('spawn ./run EACCES'), { code: 'EACCES' }), './run')).toBe('spawn ./run EACCES');
  });
});

describe('timerDelay', () => {
  it.each([
    [0, 1],
    [0.4, 1],
    [1500.9, 1500],
    [2_147_483_647, 2_147_483_647],
    [10 * 2_147_483_647, 2_147_483_647],
  ])('a limit of %s ms waits %s ms', (limit, delay) => {
    expect(timerDelay(limit)).toBe(delay);
  });
});
