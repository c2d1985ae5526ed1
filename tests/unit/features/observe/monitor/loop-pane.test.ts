import { describe, expect, it } from 'vitest';
import { closingMessage, exitCodeOf, runLoopPane, type LoopPaneDeps } from '../../../../../src/features/observe/monitor/loop-pane.js';
import { describeExitCode } from '../../../../../src/core/exit-code-meaning.js';

function fakeDeps(loopCode: number, clients: string): { deps: LoopPaneDeps; events: string[] } {
  const events: string[] = [];
  return {
    events,
    deps: {
      runLoop: async (command) => (events.push(`run ${command.join(' ')}`), loopCode),
      tmux: async (args) => (events.push(`tmux ${args[0]}${args[0] === 'kill-window' ? ` ${args.at(-1)}` : ''}`), args[0] === 'list-clients' ? clients : ''),
      writeExitCode: (path, code) => void events.push(`exit-file ${path} ${code}`),
      write: (text) => void events.push(`write ${text.trim()}`),
      waitForEnter: async () => void events.push('wait-enter'),
    },
  };
}

describe('runLoopPane', () => {
  const options = { exitFile: '/p/.ralph/.monitor_exit_code', session: 'ralph-1', command: ['ralph', '--live'] };

  it('records the exit code, waits for Enter while someone watches, then closes the session', async () => {
    const { deps, events } = fakeDeps(6, '/dev/pts/3\n');
    expect(await runLoopPane(options, deps)).toBe(6);
    expect(events).toEqual([
      'run ralph --live',
      'exit-file /p/.ralph/.monitor_exit_code 6',
      'tmux list-clients',
      'write Ralph loop finished with exit code 6 (verify gate aborted or exhausted, or review rejected).\nPress Enter to close this tmux session.',
      'wait-enter',
      'tmux kill-session',
    ]);
  });

  it("in the user's own session: closes only its window, never the session", async () => {
    const { deps, events } = fakeDeps(7, '/dev/pts/3\n');
    expect(await runLoopPane({ ...options, session: '$0', window: '@4' }, deps)).toBe(7);
    expect(events).toContain('write Ralph loop finished with exit code 7 (a limit reached (loops, cost, runtime)).\nPress Enter to close this window.');
    expect(events.at(-1)).toBe('tmux kill-window @4');
    expect(events).not.toContain('tmux kill-session');
  });

  it('closes the session at once when nobody is attached', async () => {
    const { deps, events } = fakeDeps(0, '');
    await runLoopPane(options, deps);
    expect(events).not.toContain('wait-enter');
    expect(events.at(-1)).toBe('tmux kill-session');
  });
});

describe('exitCodeOf', () => {
  it.each([
    [0, null, 0],
    [7, null, 7],
    [null, 'SIGINT', 130],
    [null, 'SIGTERM', 143],
    [null, 'SIGHUP', 129],
    [null, null, 1],
  ] as const)('code %s signal %s → %s', (code, signal, expected) => {
    expect(exitCodeOf(code, signal)).toBe(expected);
  });
});

describe('describeExitCode', () => {
  it.each([
    [0, 'completed'],
    [3, 'circuit breaker open'],
    [6, 'verify gate aborted or exhausted, or review rejected'],
    [130, 'interrupted (Ctrl+C)'],
    [137, 'ended by signal 9'],
    [42, 'unexpected exit code'],
  ])('%s → %s', (code, words) => {
    expect(describeExitCode(code)).toBe(words);
  });

  it('names the code in the closing line', () => {
    expect(closingMessage(3, false)).toBe('\nRalph loop finished with exit code 3 (circuit breaker open).\n');
  });
});
