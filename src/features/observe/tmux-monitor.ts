import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { describeExitCode } from '../../core/exit-code-meaning.js';
import { shellCommand, shellQuote } from '../../core/shell-words.js';
import { ExitCode, RalphError } from '../../errors.js';
import { readRegularFile } from '../../state/regular-file.js';
import type { ProcessRunner, RunResult } from '../../ports.js';
import { ralphPaths } from '../../state/paths.js';
import { writeFileAtomic } from '../../state/json-file.js';

/**
 * `ralph --monitor`: one tmux window, the loop on the left, the agent's live
 * output top right, the dashboard bottom right. Outside tmux the window is a
 * session of its own that this command attaches to; inside tmux it is a new
 * window of the user's session. The loop runs under a small
 * pane runner that records its exit code and keeps the final screen until the
 * watcher presses Enter. Panes are addressed by index, so the user's
 * base-index and pane-base-index are read from the server once it runs.
 */

export interface TmuxLayoutOptions {
  sessionName: string;
  projectDir: string;
  loopCommand: readonly string[];
  monitorCommand: readonly string[];
  /** Runs the loop in its pane (see features/observe/monitor/loop-pane.ts): executable and arguments. */
  paneRunner: readonly string[];
  baseIndex: number;
  paneBaseIndex: number;
  /** `tmux -L <socket>`: a private server (tests), also used by the loop pane to close the session. */
  socketName?: string;
}

/** Arguments after `tmux [-L socket] [-f config]`. */
export type TmuxCommand = string[];

export const WINDOW_TITLE = 'Ralph: Loop | Output | Status';
export const PANE_TITLES = ['Ralph Loop', 'Agent Output', 'Status'] as const;
export const LIVE_LOG_HEADER = '=== Ralph Live Output - Waiting for first loop... ===\n';

export { shellCommand, shellQuote };

function tmuxPrefix(socketName: string | undefined): string[] {
  return socketName ? ['tmux', '-L', socketName] : ['tmux'];
}

/** Where the three panes go, and what the loop pane closes when it is done. */
export interface TmuxPanesOptions {
  projectDir: string;
  loopCommand: readonly string[];
  monitorCommand: readonly string[];
  paneRunner: readonly string[];
  paneBaseIndex: number;
  /** The window the panes split: `session:index`, or a window id (`@3`) inside the user's own session. */
  window: string;
  /** The session whose clients count as watching (a name or a `$id`). */
  session: string;
  /** Set when the panes live in a window of the user's session: only that window is closed at the end. */
  closeWindow?: string;
  socketName?: string;
}

/** Splits, titles and starts the panes of a window that already exists; the loop starts last. */
export function planTmuxPanes(o: TmuxPanesOptions): TmuxCommand[] {
  const window = o.window;
  const pane = (i: number): string => `${window}.${o.paneBaseIndex + i}`;
  const paths = ralphPaths(o.projectDir);
  // The loop replaces live.log at every iteration, so the pane follows the
  // name, not the first file (-F); tail's "file replaced" notes are noise here.
  const tail = `${shellCommand(['tail', '-n', '+1', '-F', paths.liveLog])} 2>/dev/null`;
  const loop = shellCommand([
    ...o.paneRunner,
    '--exit-file',
    paths.monitorExit,
    '--session',
    o.session,
    ...(o.closeWindow ? ['--window', o.closeWindow] : []),
    ...(o.socketName ? ['--socket', o.socketName] : []),
    '--',
    ...o.loopCommand,
  ]);
  return [
    ['split-window', '-h', '-t', pane(0), '-c', o.projectDir, tail],
    ['split-window', '-v', '-t', pane(1), '-c', o.projectDir, shellCommand(o.monitorCommand)],
    ['select-pane', '-t', pane(0), '-T', PANE_TITLES[0]],
    ['select-pane', '-t', pane(1), '-T', PANE_TITLES[1]],
    ['select-pane', '-t', pane(2), '-T', PANE_TITLES[2]],
    ['set-option', '-w', '-t', window, 'pane-border-status', 'top'],
    ['rename-window', '-t', window, WINDOW_TITLE],
    // The loop starts last, in place of the shell the window opened with, so
    // it cannot end (and close its window) before the layout is complete.
    ['respawn-pane', '-k', '-t', pane(0), '-c', o.projectDir, loop],
    ['select-pane', '-t', pane(0)],
  ];
}

/** The tmux commands that build the layout in a session of its own; new-session comes first (it starts the server). */
export function planTmuxLayout(o: TmuxLayoutOptions): TmuxCommand[] {
  return [
    ['new-session', '-d', '-s', o.sessionName, '-c', o.projectDir],
    ...planTmuxPanes({
      projectDir: o.projectDir,
      loopCommand: o.loopCommand,
      monitorCommand: o.monitorCommand,
      paneRunner: o.paneRunner,
      paneBaseIndex: o.paneBaseIndex,
      window: `${o.sessionName}:${o.baseIndex}`,
      session: o.sessionName,
      ...(o.socketName ? { socketName: o.socketName } : {}),
    }),
  ];
}

export const TMUX_MISSING_MESSAGE = [
  'tmux is not installed; ralph --monitor needs it for the split-screen layout.',
  'Install it:',
  '  Debian/Ubuntu: sudo apt-get install tmux',
  '  Fedora/RHEL:   sudo dnf install tmux',
  '  macOS:         brew install tmux',
  'Or use two terminals in the project directory:',
  '  terminal 1: ralph --live',
  '  terminal 2: ralph-monitor',
].join('\n');

export type TmuxCheck = { ok: true; version: string } | { ok: false; message: string };

export async function checkTmux(runner: ProcessRunner, cwd: string): Promise<TmuxCheck> {
  try {
    const result = await runner.run('tmux', ['-V'], { cwd, timeoutMs: 5000 });
    if (result.exitCode === 0) return { ok: true, version: result.stdout.trim() };
  } catch {
    // Treated as missing below.
  }
  return { ok: false, message: TMUX_MISSING_MESSAGE };
}

export interface LaunchOptions {
  projectDir: string;
  loopCommand: readonly string[];
  monitorCommand: readonly string[];
  paneRunner: readonly string[];
  sessionName?: string;
  socketName?: string;
  /** `tmux -f <file>`: the config a new server reads (tests). */
  configFile?: string;
}

export interface LaunchDeps {
  runner: ProcessRunner;
  now: () => number;
  /** stdin and stdout are a terminal: attach; otherwise leave the session detached. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** Messages for the user (stderr). */
  write: (text: string) => void;
  /** Runs an interactive tmux client (attach) and returns its exit code. */
  attach?: (args: string[]) => number;
  /** Waits between two looks at the Ralph window (inside tmux). */
  sleep?: (ms: number) => Promise<void>;
}

export interface LaunchResult {
  sessionName: string;
  attached: boolean;
  /**
   * What `ralph --monitor` exits with: the loop's exit code once the watcher
   * stayed to the end; 0 when the loop keeps running without a watcher
   * (detached, or no terminal to attach).
   */
  exitCode: number;
}

function runInteractive(args: string[]): number {
  return spawnSync('tmux', args, { stdio: 'inherit' }).status ?? 1;
}

function parseIndex(stdout: string): number {
  const n = Number.parseInt(stdout.trim(), 10);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** Starts the layout, then attaches (terminal) or says how to attach (no terminal). */
export async function launchTmuxMonitor(options: LaunchOptions, deps: LaunchDeps): Promise<LaunchResult> {
  const cwd = options.projectDir;
  const check = await checkTmux(deps.runner, cwd);
  if (!check.ok) throw new RalphError(check.message);
  const paths = ralphPaths(cwd);
  writeFileAtomic(paths.liveLog, LIVE_LOG_HEADER);
  // A code left by an earlier run must not be taken for this run's.
  rmSync(paths.monitorExit, { force: true });

  const server = [...(options.socketName ? ['-L', options.socketName] : []), ...(options.configFile ? ['-f', options.configFile] : [])];
  const tmux = (args: string[]) => deps.runner.run('tmux', [...server, ...args], { cwd, timeoutMs: 10_000 });
  // Inside tmux already (the same server) with someone at the terminal: the
  // panes go into a new window of the user's own session. A session of our
  // own would have to be switched to, and closing it would detach the user.
  const insideTmux = deps.env['TMUX'] !== undefined && deps.env['TMUX'] !== '' && options.socketName === undefined;
  if (insideTmux && deps.isTTY) return launchInUserSession(options, deps, tmux);
  const base = options.sessionName ?? `ralph-${Math.floor(deps.now() / 1000)}`;
  const plan = (name: string, baseIndex = 0, paneBaseIndex = 0): TmuxCommand[] => planTmuxLayout({ ...options, sessionName: name, baseIndex, paneBaseIndex });

  // Two loops started in the same second must not share a session.
  let sessionName = base;
  for (let attempt = 1; ; attempt += 1) {
    const [newSession = []] = plan(sessionName);
    const started = await tmux(newSession);
    if (started.exitCode === 0) break;
    if (!/duplicate session/i.test(started.stderr) || attempt >= 10) {
      throw new RalphError(
        `tmux could not start a session: ${started.stderr.trim() || started.spawnError || 'unknown error'}`,
        1,
        'Run ralph --live and ralph-monitor in two terminals instead.',
      );
    }
    sessionName = `${base}-${attempt + 1}`;
  }

  const baseIndex = parseIndex((await tmux(['show-options', '-gv', 'base-index'])).stdout);
  const paneBaseIndex = parseIndex((await tmux(['show-options', '-gwv', 'pane-base-index'])).stdout);
  for (const command of plan(sessionName, baseIndex, paneBaseIndex).slice(1)) {
    const result = await tmux(command);
    if (result.exitCode !== 0) {
      await tmux(['kill-session', '-t', sessionName]);
      throw new RalphError(
        `tmux ${command[0]} failed: ${result.stderr.trim() || 'unknown error'}`,
        1,
        'Run ralph --live and ralph-monitor in two terminals instead.',
      );
    }
  }

  const attachHint = shellCommand([...tmuxPrefix(options.socketName), 'attach', '-t', sessionName]);
  deps.write(`Ralph is running in tmux session ${sessionName}.\nDetach with Ctrl+B then D; reattach with: ${attachHint}\n`);
  if (!deps.isTTY) {
    deps.write('Not attached (no terminal); the session keeps running in the background.\n');
    return { sessionName, attached: false, exitCode: ExitCode.Completed };
  }
  const attach = deps.attach ?? runInteractive;
  attach([...server, 'attach-session', '-t', sessionName]);

  // The client returns when the session ends or the watcher detaches: only
  // an ended session has an outcome.
  if ((await tmux(['has-session', '-t', sessionName])).exitCode === 0) {
    deps.write(`The loop keeps running in tmux session ${sessionName}; reattach with: ${attachHint}\n`);
    return { sessionName, attached: true, exitCode: ExitCode.Completed };
  }
  return { sessionName, attached: true, exitCode: reportOutcome(paths.monitorExit, `The tmux session ${sessionName} was`, deps.write) };
}

type Tmux = (args: string[]) => Promise<RunResult>;

const POLL_MS = 250;

/**
 * `ralph --monitor` typed in a tmux pane: the layout opens as a new window of
 * that pane's session and the user is switched to it. This command then waits
 * in its own pane until the window is gone, as the attached client does
 * outside tmux, and ends with the loop's exit code.
 */
async function launchInUserSession(options: LaunchOptions, deps: LaunchDeps, tmux: Tmux): Promise<LaunchResult> {
  const cwd = options.projectDir;
  const paths = ralphPaths(cwd);
  const fail = (what: string, stderr: string): RalphError =>
    new RalphError(`tmux ${what} failed: ${stderr.trim() || 'unknown error'}`, 1, 'Run ralph --live and ralph-monitor in two terminals instead.');
  // TMUX_PANE names the pane this command runs in; its session is the user's.
  const here = deps.env['TMUX_PANE'];
  const target = here ? ['-t', here] : [];
  const sessionOf = await tmux(['display-message', '-p', ...target, '#{session_id}']);
  const session = sessionOf.stdout.trim();
  if (sessionOf.exitCode !== 0 || session === '') throw fail('display-message', sessionOf.stderr);
  const created = await tmux(['new-window', '-d', '-P', '-F', '#{window_id}', '-t', `${session}:`, '-c', cwd]);
  const window = created.stdout.trim();
  if (created.exitCode !== 0 || window === '') throw fail('new-window', created.stderr);
  const paneBaseIndex = parseIndex((await tmux(['show-options', '-gwv', 'pane-base-index'])).stdout);
  const plan = planTmuxPanes({ ...options, paneBaseIndex, window, session, closeWindow: window });
  for (const command of [...plan, ['select-window', '-t', window]]) {
    const result = await tmux(command);
    if (result.exitCode !== 0) {
      await tmux(['kill-window', '-t', window]);
      throw fail(command[0] ?? '', result.stderr);
    }
  }
  deps.write(
    `Ralph is running in a new window of your tmux session (${WINDOW_TITLE}).\nWaiting here for the loop to finish; its exit code will be this command's.\n`,
  );
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // list-panes fails once the window is gone (display-message would not).
  while ((await tmux(['list-panes', '-t', window, '-F', '#{pane_id}'])).exitCode === 0) await sleep(POLL_MS);
  return { sessionName: session, attached: true, exitCode: reportOutcome(paths.monitorExit, 'The Ralph window was', deps.write) };
}

/** Reads the loop's exit code once its panes are gone, and says what it means. */
function reportOutcome(exitFile: string, closedSubject: string, write: (text: string) => void): number {
  const exitCode = readExitCode(exitFile);
  if (exitCode === undefined) {
    write(`${closedSubject} closed before the loop finished; see .ralph/status.json and .ralph/logs/ralph.log for where it stopped.\n`);
    return ExitCode.RuntimeError;
  }
  write(`Ralph loop finished with exit code ${exitCode} (${describeExitCode(exitCode)}).\n`);
  return exitCode;
}

function readExitCode(path: string): number | undefined {
  try {
    const text = readRegularFile(path, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}
