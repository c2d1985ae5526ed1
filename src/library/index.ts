/**
 * `import { runLoop } from 'ralph-ts'`: Ralph's loop as a library. The same engine and wiring
 * as the `ralph` command (src/cli/commands/loop-session.ts), driven by a program instead of a
 * terminal. docs/library.md shows it.
 */
export { runLoop } from './run-loop.js';
export type { RunLoopLimits, RunLoopOptions, RunLoopResult, SettingValue } from './run-loop-options.js';
export type { LoopEvent, LoopExit, LoopStart, LoopStop, IterationEnd, Notice, NoticeCode, VerifyResult } from '../engine/loop-events.js';
export type { ExitReason } from '../core/exit-reasons.js';
export { RalphError, UsageError, NotAProjectError, ExitCode } from '../errors.js';
