import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/sha256.js';

const nodeDigest = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('gives the published digests of the standard test messages', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("equals node:crypto's digest at every length around the block and padding edges", () => {
    for (let length = 0; length <= 200; length += 1) {
      const text = 'p'.repeat(length);
      expect(sha256Hex(text), `length ${length}`).toBe(nodeDigest(text));
    }
  });

  it("equals node:crypto's digest of paths with multi-byte characters", () => {
    for (const path of ['/home/zoë/projekt', '/tmp/项目/ralph', '/srv/🚀 launch/app', `/deep/${'ü'.repeat(3000)}`])
      expect(sha256Hex(path)).toBe(nodeDigest(path));
  });
});
