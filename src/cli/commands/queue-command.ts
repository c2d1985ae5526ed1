import type { QueueItem } from '../../core/queue/queue-item.js';
import { summarizeQueue } from '../../core/queue/queue-summary.js';
import { ExitCode } from '../../errors.js';
import { addToQueue } from '../../features/queue/queue-add.js';
import { clearQueue, removeFromQueue } from '../../features/queue/queue-edit.js';
import { cleanWorktrees } from '../../features/queue/queue-clean.js';
import { createQueueGit } from '../../features/queue/queue-git.js';
import { readRunningLoops } from '../../features/queue/running-loops.js';
import { renderRunningLoops } from '../../ui/queue-loops.js';
import { ralphPaths } from '../../state/paths.js';
import { requireProjectDir } from '../../state/project-files.js';
import { isOwnerAlive, readQueue } from '../../state/queue-store.js';
import { renderQueueList, renderQueueStatus } from '../../ui/queue-lines.js';
import { createDefaultDeps } from '../deps.js';
import type { QueueArgs } from '../queue-args.js';

/**
 * `ralph queue …`: the queue's data (added ids, the list, the status) on
 * stdout, notices on stderr. `list` and `status` only read; every other
 * subcommand changes the queue under its lock.
 */
const out = (text: string): void => {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};
const notice = (message: string): void => {
  process.stderr.write(`ralph queue: ${message}\n`);
};

/** A running item whose run is gone; the next change to the queue recovers it. */
const interrupted = (item: QueueItem): boolean => item.state === 'running' && (item.owner === undefined || !isOwnerAlive(item.owner));

export async function runQueueCommand(args: QueueArgs, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const paths = ralphPaths(cwd);
  const { runner, clock } = createDefaultDeps();
  switch (args.sub) {
    case 'add': {
      const result = await addToQueue(
        {
          source: args.source,
          after: args.after,
          ...(args.priority !== undefined ? { priority: args.priority } : {}),
          ...(args.verify !== undefined ? { verify: args.verify } : {}),
          ...(args.repo !== undefined ? { repo: args.repo } : {}),
        },
        { paths, env, runner, clock, notice },
      );
      if (result.added.length === 0) notice('nothing was added');
      for (const item of result.added) {
        const after = item.depends_on.length > 0 ? `, after ${item.depends_on.join(', ')}` : '';
        out(`added ${item.id} (P${item.priority}${after}): ${item.title}`);
      }
      return ExitCode.Completed;
    }
    case 'list': {
      requireProjectDir(paths);
      const doc = readQueue(paths);
      out(args.json ? JSON.stringify(doc, null, 2) : renderQueueList(doc.items, interrupted));
      return ExitCode.Completed;
    }
    case 'status': {
      requireProjectDir(paths);
      const doc = readQueue(paths);
      const summary = summarizeQueue(doc.items);
      const loops = readRunningLoops(paths.project, summary.running);
      if (args.json) {
        // Each running item carries what its loop is doing (loop number, state, cost, last action).
        const running = summary.running.map((item, index) => ({ ...item, interrupted: interrupted(item), loop: loops[index] }));
        out(JSON.stringify({ total: summary.total, counts: summary.counts, running, ready: summary.ready }, null, 2));
      } else {
        out(renderQueueStatus(summary, clock.now(), interrupted) + renderRunningLoops(loops));
      }
      return ExitCode.Completed;
    }
    case 'remove': {
      const removed = await removeFromQueue(paths, args.id, notice);
      out(`removed ${removed.id}: ${removed.title}`);
      return ExitCode.Completed;
    }
    case 'run': {
      const { runQueueRunCommand } = await import('./queue-run-command.js');
      return runQueueRunCommand(args.run, cwd, env);
    }
    case 'clean': {
      const report = await cleanWorktrees(paths, createQueueGit(runner), { force: args.force });
      for (const kept of report.kept) notice(`${kept.name} kept: ${kept.why}`);
      for (const gone of report.deletedIgnored) notice(`${gone.name}: removed with its ignored files ${gone.paths.join(', ')} (--force)`);
      out(
        `removed ${report.removed.length} worktree${report.removed.length === 1 ? '' : 's'}${report.removed.length > 0 ? `: ${report.removed.join(', ')}` : ''}`,
      );
      return ExitCode.Completed;
    }
    case 'clear': {
      const outcome = await clearQueue(paths, args.all, notice);
      out(
        `removed ${outcome.removed.length} item${outcome.removed.length === 1 ? '' : 's'}${outcome.removed.length > 0 ? `: ${outcome.removed.map((item) => item.id).join(', ')}` : ''}`,
      );
      return ExitCode.Completed;
    }
  }
}
