import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/**
 * The git commands started while `fn` runs, in order of their start, each by
 * its subcommand (`-c` settings and options before it, such as --no-optional-locks, left out). Git itself reports them through its
 * trace2 event stream, which every git call inherits from this process's
 * environment: a counter around the real runner, for code that calls git
 * without a ProcessRunner.
 */
export async function gitCommandsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const file = join(tempDir('ralph-git-trace-'), 'trace.jsonl');
  const saved = process.env['GIT_TRACE2_EVENT'];
  process.env['GIT_TRACE2_EVENT'] = file;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env['GIT_TRACE2_EVENT'];
    else process.env['GIT_TRACE2_EVENT'] = saved;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  rmSync(file, { force: true });
  const commands: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const event = JSON.parse(line) as { event?: string; argv?: string[] };
    if (event.event !== 'start' || !event.argv) continue;
    let i = 1;
    for (;;) {
      if (event.argv[i] === '-c') i += 2;
      else if (event.argv[i]?.startsWith('--')) i += 1;
      else break;
    }
    commands.push(event.argv[i] ?? '');
  }
  return commands;
}
