import { spawnSync } from 'node:child_process';
import { RalphError } from '../errors.js';
import type { ProcessRunner } from '../ports.js';
import { ralphPaths } from '../state/paths.js';
import { writeFileAtomic } from '../state/json-file.js';

/**
 * `ralph --monitor` (U§9.1): one tmux window, the loop on the left, Claude's
 * live output top right, the dashboard bottom right; the session dies with
 * the loop. Panes are addressed by index, so the user's base-index and
 * pane-base-index are read from the server once it runs (#259, #330).
 */

export interface TmuxLayoutOptions {
  sessionName: string;
  projectDir: string;
  loopCommand: readonly string[];
  monitorCommand: readonly string[];
  baseIndex: number;
  paneBaseIndex: number;
  /** `tmux -L <socket>`: a private server (tests), also used by the loop pane's kill-session. */
  socketName?: string;
}

/** Arguments after `tmux [-L socket] [-f config]`. */
export type TmuxCommand = string[];

export const WINDOW_TITLE = 'Ralph: Loop | Output | Status';
export const PANE_TITLES = ['Ralph Loop', 'Claude Output', 'Status'] as const;
export const LIVE_LOG_HEADER = '=== Ralph Live Output - Waiting for first loop... ===\n';

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one argument for a POSIX shell (and fish): words stay bare, the rest single-quoted. */
export function shellQuote(arg: string): string {
  if (SAFE_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

function tmuxPrefix(socketName: string | undefined): string[] {
  return socketName ? ['tmux', '-L', socketName] : ['tmux'];
}

/** The tmux commands that build the layout; new-session comes first (it starts the server). */
export function planTmuxLayout(o: TmuxLayoutOptions): TmuxCommand[] {
  const window = `${o.sessionName}:${o.baseIndex}`;
  const pane = (i: number): string => `${window}.${o.paneBaseIndex + i}`;
  const liveLog = ralphPaths(o.projectDir).liveLog;
  const tail = shellCommand(['tail', '-f', liveLog]);
  const kill = shellCommand([...tmuxPrefix(o.socketName), 'kill-session', '-t', o.sessionName]);
  const loop = `${shellCommand(o.loopCommand)}; ${kill}`;
  return [
    ['new-session', '-d', '-s', o.sessionName, '-c', o.projectDir],
    ['split-window', '-h', '-t', pane(0), '-c', o.projectDir, tail],
    ['split-window', '-v', '-t', pane(1), '-c', o.projectDir, shellCommand(o.monitorCommand)],
    ['select-pane', '-t', pane(0), '-T', PANE_TITLES[0]],
    ['select-pane', '-t', pane(1), '-T', PANE_TITLES[1]],
    ['select-pane', '-t', pane(2), '-T', PANE_TITLES[2]],
    ['set-option', '-w', '-t', window, 'pane-border-status', 'top'],
    ['rename-window', '-t', window, WINDOW_TITLE],
    // The loop starts last, in place of the shell new-session opened, so it
    // cannot end (and kill the session) before the layout is complete.
    ['respawn-pane', '-k', '-t', pane(0), '-c', o.projectDir, loop],
    ['select-pane', '-t', pane(0)],
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
}

export interface LaunchResult {
  sessionName: string;
  attached: boolean;
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
  writeFileAtomic(ralphPaths(cwd).liveLog, LIVE_LOG_HEADER);

  const server = [...(options.socketName ? ['-L', options.socketName] : []), ...(options.configFile ? ['-f', options.configFile] : [])];
  const tmux = (args: string[]) => deps.runner.run('tmux', [...server, ...args], { cwd, timeoutMs: 10_000 });
  const base = options.sessionName ?? `ralph-${Math.floor(deps.now() / 1000)}`;
  const plan = (name: string, baseIndex = 0, paneBaseIndex = 0): TmuxCommand[] =>
    planTmuxLayout({ ...options, sessionName: name, baseIndex, paneBaseIndex });

  // Two loops started in the same second must not share a session.
  let sessionName = base;
  for (let attempt = 1; ; attempt += 1) {
    const [newSession = []] = plan(sessionName);
    const started = await tmux(newSession);
    if (started.exitCode === 0) break;
    if (!/duplicate session/i.test(started.stderr) || attempt >= 10) {
      throw new RalphError(`tmux could not start a session: ${started.stderr.trim() || started.spawnError || 'unknown error'}`, 1, 'Run ralph --live and ralph-monitor in two terminals instead.');
    }
    sessionName = `${base}-${attempt + 1}`;
  }

  const baseIndex = parseIndex((await tmux(['show-options', '-gv', 'base-index'])).stdout);
  const paneBaseIndex = parseIndex((await tmux(['show-options', '-gwv', 'pane-base-index'])).stdout);
  for (const command of plan(sessionName, baseIndex, paneBaseIndex).slice(1)) {
    const result = await tmux(command);
    if (result.exitCode !== 0) {
      await tmux(['kill-session', '-t', sessionName]);
      throw new RalphError(`tmux ${command[0]} failed: ${result.stderr.trim() || 'unknown error'}`, 1, 'Run ralph --live and ralph-monitor in two terminals instead.');
    }
  }

  const attachHint = shellCommand([...tmuxPrefix(options.socketName), 'attach', '-t', sessionName]);
  deps.write(`Ralph is running in tmux session ${sessionName}.\nDetach with Ctrl+B then D; reattach with: ${attachHint}\n`);
  if (!deps.isTTY) {
    deps.write('Not attached (no terminal); the session keeps running in the background.\n');
    return { sessionName, attached: false };
  }
  // Inside tmux already (same server): switch this client instead of nesting.
  const inside = deps.env['TMUX'] !== undefined && deps.env['TMUX'] !== '' && options.socketName === undefined;
  const attach = deps.attach ?? runInteractive;
  attach([...server, ...(inside ? ['switch-client', '-t', sessionName] : ['attach-session', '-t', sessionName])]);
  return { sessionName, attached: true };
}
