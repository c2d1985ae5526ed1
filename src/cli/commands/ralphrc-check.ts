import { readFileSync } from 'node:fs';
import { parseRalphrc } from '../../config/ralphrc.js';
import { acceptRalphrc, describeRalphrcChange, ralphrcChanges, type AcceptedRalphrc } from '../../config/ralphrc-review.js';
import { ExitCode, RalphError } from '../../errors.js';
import type { Logger } from '../../ports.js';
import { readAcceptedRalphrc, saveAcceptedRalphrc } from '../../state/accepted-ralphrc.js';
import type { RalphPaths } from '../../state/paths.js';

export interface RalphrcCheckInput {
  paths: RalphPaths;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** --accept-config-change was given. */
  accept: boolean;
  /** Asks the person at the terminal; undefined without one. */
  confirm?: (question: string) => Promise<boolean>;
}

const CONFIRM_TIMEOUT_HINT =
  'Check .ralphrc (an agent of the last run could write it): restore what you did not change, or pass --accept-config-change to run with it.';

function currentValues(paths: RalphPaths, env: RalphrcCheckInput['env']): AcceptedRalphrc {
  let text = '';
  try {
    text = readFileSync(paths.ralphrc, 'utf8');
  } catch {
    // No .ralphrc: no values, which is what a removed file is compared as.
  }
  return acceptRalphrc(parseRalphrc(text, env).entries);
}

/**
 * Compares .ralphrc with the values the last run accepted (src/config/ralphrc-review.ts) before a
 * run starts: says every change, and for a change to a guarded setting asks on a terminal, or
 * goes on only with --accept-config-change; elsewhere it stops with exit 2. The values the run
 * goes on with become the accepted ones, at once, so a run killed later keeps them too.
 */
export async function checkRalphrcChange(input: RalphrcCheckInput): Promise<void> {
  const current = currentValues(input.paths, input.env);
  const accepted = readAcceptedRalphrc(input.paths);
  if (accepted !== undefined) {
    const changes = ralphrcChanges(accepted, current);
    if (changes.length > 0) {
      input.logger.warn(`.ralphrc changed since the last run:\n${changes.map((c) => `  • ${describeRalphrcChange(c)}`).join('\n')}`);
      const guarded = changes.filter((c) => c.guarded).map((c) => c.key);
      if (guarded.length > 0 && !input.accept) {
        const question = `Run with the changed ${guarded.join(', ')}?`;
        const yes = input.confirm !== undefined && (await input.confirm(question));
        if (!yes)
          throw new RalphError(
            `.ralphrc changed since the last run in ${guarded.join(', ')}, which decide what runs and how it is contained; not started.`,
            ExitCode.Usage,
            CONFIRM_TIMEOUT_HINT,
          );
      }
      if (guarded.length > 0 && input.accept) input.logger.info(`Accepted the changed ${guarded.join(', ')} (--accept-config-change).`);
    }
  }
  saveAcceptedRalphrc(input.paths, current);
}

/**
 * At the end of a run: a .ralphrc that changed while it ran (the agent can write it without
 * --sandbox) is said at once; the accepted values stay those the run started with, so the next
 * start shows the change again and asks before running with it.
 */
export function reportRalphrcChangedDuringRun(input: Pick<RalphrcCheckInput, 'paths' | 'env' | 'logger'>): void {
  const accepted = readAcceptedRalphrc(input.paths);
  if (accepted === undefined) return;
  const changes = ralphrcChanges(accepted, currentValues(input.paths, input.env));
  if (changes.length === 0) return;
  input.logger.warn(
    `.ralphrc changed during this run (the next start asks before using what needs your confirmation):\n${changes.map((c) => `  • ${describeRalphrcChange(c)}`).join('\n')}`,
  );
}
