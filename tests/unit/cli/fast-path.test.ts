import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARIES, FAST_PATHS, fastAnswer, switchOrders } from '../../../src/cli/fast-path.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('the fast-path table', () => {
  it("names exactly the commands of package.json's bin", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect([...BINARIES].sort()).toEqual(Object.keys(manifest.bin).sort());
  });

  it('gives every command its --version and --help', () => {
    for (const binary of BINARIES) {
      expect(fastAnswer(binary, ['--version'])).toEqual({ kind: 'version' });
      expect(fastAnswer(binary, ['-h'])).toEqual({ kind: 'help' });
    }
  });

  it('lists each argv of a command once, each word in it at most once', () => {
    for (const binary of BINARIES) {
      const argvs = FAST_PATHS.filter((r) => r.binary === binary).flatMap((r) => r.argvs.map((a) => a.join(' ')));
      expect(new Set(argvs).size).toBe(argvs.length);
    }
    for (const row of FAST_PATHS) for (const argv of row.argvs) expect(new Set(argv).size).toBe(argv.length);
  });

  it.each([
    ['ralph', ['--json', '--status'], { kind: 'status', action: 'status', json: true }],
    ['ralph', ['--circuit-status'], { kind: 'status', action: 'circuit-status', json: false }],
    ['ralph-stats', [], { kind: 'stats', args: { json: false } }],
    ['ralph-monitor', ['--no-color', '--json', '--once'], { kind: 'monitor', once: true, json: true, color: false }],
  ] as const)('%s %j reads as its parser reads it', (binary, argv, answer) => {
    expect(fastAnswer(binary, argv)).toEqual(answer);
  });

  it.each([
    ['ralph', []],
    ['ralph', ['--json']],
    ['ralph', ['--status', '--json', '--json']],
    ['ralph', ['--status', '--circuit-status']],
    ['ralph', ['--status', 'extra']],
    ['ralph', ['run', '--help']],
    ['ralph', ['--version', '--json']],
    ['ralph-stats', ['--json', '--json']],
    ['ralph-stats', ['--project', '.']],
    ['ralph-monitor', []],
    ['ralph-monitor', ['--no-color']],
    ['ralph-monitor', ['--once', '-i', '5']],
    ['ralph-setup', ['--status']],
  ] as const)('leaves %s %j to the parser', (binary, argv) => {
    expect(fastAnswer(binary, argv)).toBeUndefined();
  });

  it('each row answers exactly the argvs it lists (every argv of up to four words from its own and others, tried)', () => {
    const words = [...new Set([...FAST_PATHS.flatMap((row) => row.argvs.flat()), 'extra'])];
    const argvs: string[][] = [[]];
    for (let size = 1; size <= 4; size += 1)
      for (const argv of argvs.filter((a) => a.length === size - 1)) for (const word of words) argvs.push([...argv, word]);
    for (const row of FAST_PATHS) {
      const listed = new Set(row.argvs.map((a) => JSON.stringify(a)));
      const matched = argvs.filter((argv) => row.matches(argv)).map((a) => JSON.stringify(a));
      expect(new Set(matched), `${row.binary} ${[...listed][0] ?? ''}`).toEqual(listed);
    }
  });

  it('switchOrders lists every order of every subset the filter keeps', () => {
    expect(switchOrders(['a', 'b'], () => true)).toEqual([[], ['a'], ['b'], ['a', 'b'], ['b', 'a']]);
    expect(switchOrders(['a', 'b', 'c'], (o) => o.length === 3)).toHaveLength(6);
  });
});
