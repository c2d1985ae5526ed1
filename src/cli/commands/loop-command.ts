import type { RalphArgs } from '../ralph-args.js';
import type { TaskMode } from '../../engine/loop-deps.js';
import { askChoice } from '../../ui/ask.js';
import { shellCommand } from '../../core/shell-words.js';
import { createStopSignalHandler } from './stop-signals.js';
import { startLoopSession, type LoopFrontEnd } from './loop-session.js';
import { openEventSink, type EventSink } from '../loop/event-sink.js';
import { currentRedactors } from '../../state/redaction.js';

export interface LoopCommandInput {
  args: RalphArgs;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Task mode (`ralph run`); its verify options are already in `args.flags`. */
  task?: TaskMode;
}

/**
 * `ralph` (and `ralph run`): the loop of startLoopSession on the terminal — its lines on
 * stderr, questions asked there, Ctrl+C / SIGTERM to stop it. Returns the exit code.
 */
export async function runLoopCommand(input: LoopCommandInput): Promise<number> {
  const { args } = input;
  // Opened first: a path it cannot use is refused (exit 2) before the loop begins.
  const events: EventSink | undefined =
    args.events === undefined
      ? undefined
      : openEventSink(
          args.events,
          input.cwd,
          (text) => process.stdout.write(text),
          (message) => process.stderr.write(`${message}\n`),
          () => currentRedactors().text,
        );
  try {
    return await runLoop(input, events);
  } finally {
    events?.close();
  }
}

async function runLoop(input: LoopCommandInput, events: EventSink | undefined): Promise<number> {
  const { args } = input;
  const frontEnd = terminalFrontEnd();
  const result = await startLoopSession({
    cwd: input.cwd,
    env: input.env,
    flags: args.flags,
    dryRun: args.dryRun,
    fresh: args.fresh === true,
    ...(input.task ? { task: input.task } : {}),
    allowNoGit: args.allowNoGit === true,
    acceptConfigChange: args.acceptConfigChange === true,
    frontEnd: events ? { ...frontEnd, onEvent: (event) => events.write(event) } : frontEnd,
  });
  return result.exitCode;
}

/** The terminal as a loop's front end: stderr for its lines (stdout stays for data), signals to stop it. */
export function terminalFrontEnd(): LoopFrontEnd {
  const write = (text: string | Uint8Array): void => {
    process.stderr.write(text);
  };
  return {
    tty: process.stdin.isTTY === true && process.stderr.isTTY === true,
    write,
    quiet: false,
    ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
    ask: ({ preface, question, choices, defaultChoice, timeoutMs }, signal) => {
      if (preface) write(preface);
      return askChoice({ question, choices, defaultChoice, timeoutMs, ...(signal ? { signal } : {}) });
    },
    // Advice to start again repeats this command line: `ralph run '<task>'` must not become the plan loop.
    restartCommand: shellCommand(['ralph', ...process.argv.slice(2)]),
    attach: ({ abort, exitGuard, store }) => {
      // A forced exit skips the call's end, where live.log is written out: what it holds goes out first.
      const forceExit = (code: number): never => {
        store.flushLiveLog();
        try {
          store.markForcedExit(process.pid, Date.now(), code);
        } catch {
          // The exit goes on: a status that cannot be written must not keep a forced exit waiting.
        }
        process.exit(code);
      };
      const onSignal = createStopSignalHandler({ abort, guard: exitGuard, write, exit: forceExit });
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      return () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      };
    },
  };
}
