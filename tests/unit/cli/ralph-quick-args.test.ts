import { describe, expect, it } from 'vitest';
import { parseRalphArgs } from '../../../src/cli/ralph-args.js';
import { quickRalphArgs } from '../../../src/cli/ralph-quick-args.js';

const silent = { out: (): void => undefined, err: (): void => undefined };

describe('quickRalphArgs: the read-only commands read without commander', () => {
  it.each([
    [['--status']],
    [['--status', '--json']],
    [['--json', '--status']],
    [['--circuit-status']],
    [['--circuit-status', '--json']],
    [['--json', '--circuit-status']],
  ])('%j reads exactly as the parser reads it', async (argv) => {
    const quick = quickRalphArgs(argv);
    expect(quick).toBeDefined();
    expect(quick).toEqual(await parseRalphArgs(argv, '9.9.9', silent));
  });

  it.each([
    [[]],
    [['--json']],
    [['--status', '--json', '--json']],
    [['--status', '--circuit-status']],
    [['--status', '--verbose']],
    [['--status', 'extra']],
    [['--reset-circuit']],
    [['--help']],
    [['run', '--status']],
  ])('leaves %j to the parser', (argv) => {
    expect(quickRalphArgs(argv)).toBeUndefined();
  });
});
