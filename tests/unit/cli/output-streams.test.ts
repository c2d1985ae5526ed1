import { describe, expect, it } from 'vitest';
import { prepareWhenCreated } from '../../../src/cli/output-streams.js';

/** An owner whose streams, like Node's, are made by a getter on first use; counts how often it ran. */
function lazyOwner() {
  const made: string[] = [];
  const owner = {} as Pick<NodeJS.Process, 'stdout' | 'stderr'>;
  for (const name of ['stdout', 'stderr'] as const) {
    let stream: NodeJS.WriteStream | undefined;
    Object.defineProperty(owner, name, {
      configurable: true,
      enumerable: true,
      get() {
        if (!stream) {
          made.push(name);
          stream = { name } as unknown as NodeJS.WriteStream;
        }
        return stream;
      },
    });
  }
  return { owner, made };
}

describe('prepareWhenCreated', () => {
  it('creates no stream until something uses it', () => {
    const { owner, made } = lazyOwner();
    const prepared: string[] = [];
    prepareWhenCreated('stdout', () => prepared.push('guard'), owner);
    prepareWhenCreated('stderr', () => prepared.push('guard'), owner);
    expect(made).toEqual([]);
    expect(prepared).toEqual([]);
  });

  it('prepares a stream once, on first use, in the order the preparations were asked for', () => {
    const { owner, made } = lazyOwner();
    const prepared: string[] = [];
    prepareWhenCreated('stdout', (s) => prepared.push(`closed-reader ${(s as unknown as { name: string }).name}`), owner);
    prepareWhenCreated('stdout', (s) => prepared.push(`redact ${(s as unknown as { name: string }).name}`), owner);
    const first = owner.stdout;
    expect(owner.stdout).toBe(first);
    expect(made).toEqual(['stdout']);
    expect(prepared).toEqual(['closed-reader stdout', 'redact stdout']);
  });

  it('prepares at once a stream whose property cannot be redefined', () => {
    const stream = { name: 'fixed' } as unknown as NodeJS.WriteStream;
    const owner = Object.defineProperty({}, 'stdout', { value: stream, configurable: false, enumerable: true }) as Pick<NodeJS.Process, 'stdout' | 'stderr'>;
    const prepared: NodeJS.WriteStream[] = [];
    prepareWhenCreated('stdout', (s) => prepared.push(s), owner);
    expect(prepared).toEqual([stream]);
  });
});
