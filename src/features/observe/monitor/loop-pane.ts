import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { describeExitCode } from '../../../core/exit-code-meaning.js';
import { run } from '../../../infra/process.js';
import { writeFileAtomic } from '../../../state/json-file.js';

/**
 * The left pane of `ralph --monitor`: runs the loop, keeps its exit code for
 * the `ralph --monitor` that is attached, and leaves the final screen standing
 * until the person watching has read it. Without this wrapper the session
 * vanished with the loop and tmux reported "[exited]" whatever the outcome.
 */

export interface LoopPaneOptions {
  /** Where the loop's exit code is written (one number and a newline). */
  exitFile: string;
  session: string;
  /**
   * The window to close instead of the session: set when the panes were
   * opened in a window of the user's own session, which must stay.
   */
  window?: string;
  /** `tmux -L <socket>`, when the session lives on a private server. */
  socket?: string;
  /** The loop: executable and arguments. */
  command: string[];
}

/** Exit code of a process that ended, the way a shell reports it (128 + signal). */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal ? osConstants.signals[signal] : undefined;
  return number !== undefined ? 128 + number : 1;
}

/** The closing lines of the loop pane, shown under the loop's last output. */
export function closingMessage(code: number, someoneWatching: boolean, closes: 'session' | 'window' = 'session'): string {
  const lines = ['', `Ralph loop finished with exit code ${code} (${describeExitCode(code)}).`];
  if (someoneWatching) lines.push(closes === 'window' ? 'Press Enter to close this window.' : 'Press Enter to close this tmux session.');
  return `${lines.join('\n')}\n`;
}

export interface LoopPaneDeps {
  /** Runs the loop in this terminal; resolves with its exit code. */
  runLoop(command: string[]): Promise<number>;
  /** Runs a tmux command on the session's server; resolves with its stdout ('' on failure). */
  tmux(args: string[]): Promise<string>;
  writeExitCode(path: string, code: number): void;
  write(text: string): void;
  /** Resolves once the person presses Enter (or the terminal is gone). */
  waitForEnter(): Promise<void>;
}

/** Runs the loop, records its exit code, then closes its session (or window) once nobody needs the screen. */
export async function runLoopPane(options: LoopPaneOptions, deps: LoopPaneDeps): Promise<number> {
  const code = await deps.runLoop(options.command);
  deps.writeExitCode(options.exitFile, code);
  // A session nobody is attached to would stay forever waiting for a key.
  const clients = await deps.tmux(['list-clients', '-t', options.session, '-F', '#{client_name}']);
  const watching = clients.trim() !== '';
  deps.write(closingMessage(code, watching, options.window ? 'window' : 'session'));
  if (watching) await deps.waitForEnter();
  await deps.tmux(options.window ? ['kill-window', '-t', options.window] : ['kill-session', '-t', options.session]);
  return code;
}

/** The real effects: the loop inherits the pane's terminal. */
export function createLoopPaneDeps(socket: string | undefined): LoopPaneDeps {
  const server = socket ? ['-L', socket] : [];
  return {
    runLoop: (command) =>
      new Promise((resolve) => {
        const [file = '', ...args] = command;
        const child = spawn(file, args, { stdio: 'inherit' });
        // Ctrl+C reaches the loop directly (same process group); the loop
        // decides what it means. Termination is passed on so the loop can save
        // its state before this pane goes away.
        const ignore = (): void => undefined;
        const forward = (signal: NodeJS.Signals) => (): void => void child.kill(signal);
        const onTerm = forward('SIGTERM');
        const onHup = forward('SIGHUP');
        process.on('SIGINT', ignore);
        process.on('SIGTERM', onTerm);
        process.on('SIGHUP', onHup);
        const done = (code: number): void => {
          process.off('SIGINT', ignore);
          process.off('SIGTERM', onTerm);
          process.off('SIGHUP', onHup);
          resolve(code);
        };
        child.on('error', (error) => {
          process.stderr.write(`Could not start the loop: ${error.message}\n`);
          done(1);
        });
        child.on('exit', (code, signal) => done(exitCodeOf(code, signal)));
      }),
    tmux: async (args) => {
      const result = await run('tmux', [...server, ...args], { cwd: process.cwd() });
      return result.exitCode === 0 ? result.stdout.toString('utf8') : '';
    },
    writeExitCode: (path, code) => writeFileAtomic(path, `${code}\n`),
    write: (text) => void process.stdout.write(text),
    waitForEnter: () =>
      new Promise((resolve) => {
        // Ctrl+C here means "close" as well: dying instead would leave the
        // other panes of the session running with nobody to end them.
        const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
        const finish = (): void => {
          for (const name of signals) process.off(name, finish);
          process.stdin.pause();
          resolve();
        };
        for (const name of signals) process.once(name, finish);
        process.stdin.once('data', finish);
        process.stdin.once('end', finish);
        process.stdin.once('error', finish);
        process.stdin.resume();
      }),
  };
}
