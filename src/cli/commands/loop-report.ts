import { resolve } from 'node:path';
import { isoTimestamp } from '../../core/time-format.js';
import { ExitCode, RalphError, UsageError } from '../../errors.js';
import { runGitText } from '../../infra/git.js';
import { readProjectText } from '../../state/project-file-read.js';
import { createProcessRunner } from '../../infra/process-runner.js';
import { ralphPaths } from '../../state/paths.js';
import { writeRunReport } from '../../state/run-report-file.js';

/**
 * `--report FILE` around a loop: whatever ends the run — the loop's own exit,
 * an error before it began, Ctrl+C — the report is written with the exit code
 * the process ends with, then the error (if any) goes on to be reported.
 */
export async function withRunReport(report: string | undefined, cwd: string, loop: () => Promise<number>): Promise<number> {
  if (report === undefined) return loop();
  const startedIso = isoTimestamp(Date.now());
  let exitCode: number = ExitCode.RuntimeError;
  let fallbackReason = 'error';
  try {
    exitCode = await loop();
    return exitCode;
  } catch (error) {
    if (error instanceof RalphError) {
      exitCode = error.exitCode;
      fallbackReason = error instanceof UsageError || error.exitCode === ExitCode.Usage ? 'usage_error' : 'error';
    }
    throw error;
  } finally {
    const branch = await runGitText(createProcessRunner(), ['symbolic-ref', '--short', '-q', 'HEAD'], { cwd });
    writeRunReport(ralphPaths(cwd), report, {
      exitCode,
      fallbackReason,
      branch: branch.exitCode === 0 && branch.stdout.trim() !== '' ? branch.stdout.trim() : undefined,
      startedIso,
      endedIso: isoTimestamp(Date.now()),
    });
  }
}

/** `ralph run --task-file FILE`: the task's text, read once at the start. */
export function readTaskFile(cwd: string, file: string): string {
  let text: string | undefined;
  try {
    // Read like every file given to the agent: from inside the project only, never through a link out of it.
    text = readProjectText(cwd, resolve(cwd, file), '--task-file')?.trim();
  } catch (error) {
    if (error instanceof RalphError) throw error;
    throw new UsageError(`--task-file ${file} cannot be read: ${(error as Error).message}`, 'Name a file that holds the task, such as --task-file task.md.');
  }
  if (text === undefined)
    throw new UsageError(
      `--task-file ${file} cannot be read: ENOENT: no such file or directory`,
      'Name a file that holds the task, such as --task-file task.md.',
    );
  if (text !== '') return text;
  throw new UsageError(`--task-file ${file} is empty.`, 'Write the task into the file, or give it on the command line: ralph run "the task".');
}
