import { describe, expect, it } from 'vitest';
import { parseLoopPaneArgs } from '../../../src/cli/loop-pane-args.js';

const silent = { out: () => undefined, err: () => undefined };

describe('parseLoopPaneArgs', () => {
  it('reads the exit file, session, socket and the loop command after --', async () => {
    expect(await parseLoopPaneArgs(['--exit-file', '/x', '--session', 's', '--socket', 'k', '--', 'node', 'ralph.js', '--session', 'y'], silent)).toEqual({
      exitFile: '/x',
      session: 's',
      socket: 'k',
      command: ['node', 'ralph.js', '--session', 'y'],
    });
  });

  it("reads the window to close when the panes are in the user's session", async () => {
    expect(await parseLoopPaneArgs(['--exit-file', '/x', '--session', '$1', '--window', '@3', '--', 'ralph'], silent)).toEqual({
      exitFile: '/x',
      session: '$1',
      window: '@3',
      command: ['ralph'],
    });
  });

  it('keeps the flags of the loop command for the loop', async () => {
    expect((await parseLoopPaneArgs(['--exit-file', '/x', '--session', 's', '--', 'ralph', '--live', '--calls', '50'], silent))?.command).toEqual([
      'ralph',
      '--live',
      '--calls',
      '50',
    ]);
  });

  it.each([[[]], [['--exit-file', '/x', '--session', 's']], [['--session', 's', '--', 'ralph']], [['--exit-file', '/x', '--session', 's', 'ralph']]])(
    'refuses %j with a usage error',
    async (argv) => {
      await expect(parseLoopPaneArgs(argv, silent)).rejects.toThrow(/needs --exit-file FILE --session NAME/);
    },
  );
});
