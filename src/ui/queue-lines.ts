import { formatPriority } from '../core/queue/queue-priority.js';
import type { QueueItem } from '../core/queue/queue-item.js';
import type { QueueSummary } from '../core/queue/queue-summary.js';
import { describeFollow } from '../core/queue/follow/follow-record.js';

/**
 * What `ralph queue list` and `ralph queue status` print for people (the
 * `--json` documents are the data itself). Pure string builders.
 */
function table(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function stateText(item: QueueItem, interrupted: boolean): string {
  if (item.state === 'running' && interrupted) return 'running (interrupted)';
  return item.state;
}

export function renderQueueList(items: readonly QueueItem[], isInterrupted: (item: QueueItem) => boolean): string {
  if (items.length === 0) return 'The queue is empty. Add work with: ralph queue add \'>>task :: verify:"npm test"\'\n';
  const rows = [['ID', 'PRI', 'STATE', 'AFTER', 'TITLE']];
  for (const item of items) {
    const follow = item.follow ? `(${describeFollow(item.follow)})` : undefined;
    const note = [item.result?.pr_url ?? item.reason, follow].filter(Boolean).join(' ');
    rows.push([
      item.id,
      formatPriority(item.priority),
      stateText(item, isInterrupted(item)),
      item.depends_on.join(',') || '-',
      `${item.title}${item.github ? ` (#${item.github.number})` : ''}${note ? ` — ${note}` : ''}`,
    ]);
  }
  return `${table(rows).join('\n')}\n`;
}

export function renderQueueStatus(summary: QueueSummary, nowMs: number, isInterrupted: (item: QueueItem) => boolean): string {
  const c = summary.counts;
  const lines = [
    `Queue: ${summary.total} item${summary.total === 1 ? '' : 's'} — ${c.pending} pending, ${c.running} running, ${c.completed} completed, ${c.failed} failed, ${c.skipped} skipped`,
  ];
  for (const item of summary.running) {
    const since = item.started_at ? Math.max(0, Math.round((nowMs - Date.parse(item.started_at)) / 1000)) : undefined;
    const how = isInterrupted(item)
      ? 'interrupted: its run is gone; the next change to the queue puts it back to pending'
      : [item.branch ? `on ${item.branch}` : undefined, since !== undefined ? `for ${since}s` : undefined].filter(Boolean).join(', ') || 'starting';
    lines.push(`  running ${item.id}: ${item.title} (${how})`);
    // A running item whose pull request is followed: its round and the checks it waits for.
    if (item.follow) lines.push(`    pull request #${item.follow.pr_number}: ${describeFollow(item.follow)}`);
  }
  lines.push(
    summary.ready.length > 0
      ? `Next: ${summary.ready.join(', ')}`
      : c.pending > 0
        ? 'Next: none ready (pending items wait for running ones)'
        : 'Next: nothing pending',
  );
  return `${lines.join('\n')}\n`;
}
