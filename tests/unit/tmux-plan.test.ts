import { describe, expect, it } from 'vitest';
import { planTmuxLayout, planTmuxPanes, shellQuote, TMUX_MISSING_MESSAGE, WINDOW_TITLE } from '../../src/features/observe/tmux-monitor.js';

const base = {
  sessionName: 'ralph-1767000000',
  projectDir: '/home/me/todo app',
  loopCommand: ['ralph', '--live', '--calls', '50'],
  monitorCommand: ['ralph-monitor'],
  paneRunner: ['node', '/opt/ralph/dist/cli/monitor-loop-pane.js'],
  baseIndex: 0,
  paneBaseIndex: 0,
};

describe('planTmuxLayout', () => {
  it('starts with new-session -d in the project, then splits, titles, and runs the loop last', () => {
    const plan = planTmuxLayout(base);
    expect(plan[0]).toEqual(['new-session', '-d', '-s', 'ralph-1767000000', '-c', '/home/me/todo app']);
    expect(plan.map((c) => c[0])).toEqual([
      'new-session',
      'split-window',
      'split-window',
      'select-pane',
      'select-pane',
      'select-pane',
      'set-option',
      'rename-window',
      'respawn-pane',
      'select-pane',
    ]);
    expect(plan[1]).toEqual([
      'split-window',
      '-h',
      '-t',
      'ralph-1767000000:0.0',
      '-c',
      '/home/me/todo app',
      "tail -n +1 -F '/home/me/todo app/.ralph/live.log' 2>/dev/null",
    ]);
    expect(plan[2]).toEqual(['split-window', '-v', '-t', 'ralph-1767000000:0.1', '-c', '/home/me/todo app', 'ralph-monitor']);
    expect(plan.slice(3, 6)).toEqual([
      ['select-pane', '-t', 'ralph-1767000000:0.0', '-T', 'Ralph Loop'],
      ['select-pane', '-t', 'ralph-1767000000:0.1', '-T', 'Agent Output'],
      ['select-pane', '-t', 'ralph-1767000000:0.2', '-T', 'Status'],
    ]);
    expect(plan[7]).toEqual(['rename-window', '-t', 'ralph-1767000000:0', WINDOW_TITLE]);
    expect(plan[8]).toEqual([
      'respawn-pane',
      '-k',
      '-t',
      'ralph-1767000000:0.0',
      '-c',
      '/home/me/todo app',
      `node /opt/ralph/dist/cli/monitor-loop-pane.js --exit-file '/home/me/todo app/.ralph/.monitor_exit_code' --session ralph-1767000000 -- ralph --live --calls 50`,
    ]);
    expect(plan[9]).toEqual(['select-pane', '-t', 'ralph-1767000000:0.0']);
  });

  it("in a window of the user's session: addresses the window by id and closes only it", () => {
    const plan = planTmuxPanes({ ...base, paneBaseIndex: 1, window: '@7', session: '$2', closeWindow: '@7' });
    expect(plan[0]?.slice(0, 4)).toEqual(['split-window', '-h', '-t', '@7.1']);
    expect(plan.some((c) => c[0] === 'new-session')).toBe(false);
    const loop = plan.find((c) => c[0] === 'respawn-pane')?.at(-1);
    expect(loop).toContain("--session '$2' --window @7 -- ralph --live");
  });

  it('offsets window and pane targets by base-index and pane-base-index', () => {
    const plan = planTmuxLayout({ ...base, baseIndex: 1, paneBaseIndex: 1 });
    const targets = plan.flatMap((c) => c.filter((_, i) => c[i - 1] === '-t'));
    expect(targets).toEqual([
      'ralph-1767000000:1.1',
      'ralph-1767000000:1.2',
      'ralph-1767000000:1.1',
      'ralph-1767000000:1.2',
      'ralph-1767000000:1.3',
      'ralph-1767000000:1',
      'ralph-1767000000:1',
      'ralph-1767000000:1.1',
      'ralph-1767000000:1.1',
    ]);
    const mixed = planTmuxLayout({ ...base, baseIndex: 0, paneBaseIndex: 1 });
    expect(mixed[2]?.[3]).toBe('ralph-1767000000:0.2');
  });

  it('passes the private socket to the loop pane, which closes the session', () => {
    const plan = planTmuxLayout({ ...base, socketName: 'ralph-test-42' });
    expect(plan[8]?.at(-1)).toContain('--session ralph-1767000000 --socket ralph-test-42 -- ralph --live --calls 50');
  });

  it('follows live.log by name, since the loop replaces the file at every iteration', () => {
    expect(planTmuxLayout(base)[1]?.at(-1)).toMatch(/^tail -n \+1 -F /);
  });

  it('quotes every argument of the loop and monitor commands', () => {
    const plan = planTmuxLayout({
      ...base,
      loopCommand: ['/opt/my tools/ralph', '--prompt', "it's $HOME; rm -rf ~", '--allowed-tools', 'Bash(git *)'],
      monitorCommand: ['node', '/a b/monitor.js'],
    });
    expect(plan[8]?.at(-1)).toMatch(/ -- '\/opt\/my tools\/ralph' --prompt 'it'\\''s \$HOME; rm -rf ~' --allowed-tools 'Bash\(git \*\)'$/);
    expect(plan[2]?.at(-1)).toBe("node '/a b/monitor.js'");
  });
});

describe('shellQuote', () => {
  it.each([
    ['plain', 'plain'],
    ['--calls=5', '--calls=5'],
    ['/usr/bin/node', '/usr/bin/node'],
    ['', "''"],
    ['two words', "'two words'"],
    ["it's", "'it'\\''s'"],
    ['$(reboot)', "'$(reboot)'"],
    ['a\nb', "'a\nb'"],
  ])('%j → %s', (input, expected) => {
    expect(shellQuote(input)).toBe(expected);
  });
});

describe('TMUX_MISSING_MESSAGE', () => {
  it('says how to install tmux and how to work without it', () => {
    expect(TMUX_MISSING_MESSAGE).toContain('sudo apt-get install tmux');
    expect(TMUX_MISSING_MESSAGE).toContain('brew install tmux');
    expect(TMUX_MISSING_MESSAGE).toContain('ralph --live');
    expect(TMUX_MISSING_MESSAGE).toContain('ralph-monitor');
  });
});
