import { describe, expect, it } from 'vitest';
import { quickFlags } from '../../../src/cli/quick-flags.js';
import { parseMonitorArgs } from '../../../src/cli/ralph-monitor-args.js';
import { quickMonitorArgs } from '../../../src/cli/ralph-monitor-quick-args.js';
import { parseStatsArgs } from '../../../src/cli/ralph-stats-args.js';
import { quickStatsArgs } from '../../../src/cli/ralph-stats-quick-args.js';

const silent = { out: (): void => undefined, err: (): void => undefined };

describe('quickFlags: read-only commands read without commander', () => {
  it.each([[[]], [['--json']]])('ralph-stats %j reads exactly as its parser reads it', async (argv) => {
    expect(quickStatsArgs(argv)).toEqual(await parseStatsArgs(argv, silent));
  });

  it.each([[[]], [['--once']], [['--json']], [['--no-color']], [['--once', '--no-color']], [['--no-color', '--once']], [['--once', '--json', '--no-color']]])(
    'ralph-monitor %j reads exactly as its parser reads it',
    async (argv) => {
      expect(quickMonitorArgs(argv)).toEqual(await parseMonitorArgs(argv, silent));
    },
  );

  it.each([[['--json', '--json']], [['--help']], [['-p', 'dir']], [['--project=dir']], [['--jsn']], [['--once', '-i', '5']], [['--color']]])(
    'leaves %j to the parser',
    (argv) => {
      expect(quickFlags(argv, ['--once', '--json', '--no-color'])).toBeUndefined();
      expect(quickMonitorArgs(argv)).toBeUndefined();
    },
  );
});
