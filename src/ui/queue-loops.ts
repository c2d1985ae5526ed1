import type { RunningLoopView } from '../core/queue/running-loop-view.js';

/**
 * The running loops of a queue run, one line each: item, loop number, state,
 * cost so far and the last thing it did — for `ralph queue status` and the
 * monitor's Queue section. Pure string builders.
 */
export function runningLoopLine(loop: RunningLoopView, width = 120): string {
  const cost = `$${loop.costUsd.toFixed(4)}${loop.costEstimated ? ' (est.)' : ''}`;
  const head = `${loop.id}  loop ${loop.loop}  ${loop.state}  ${cost}`;
  // While its pull request's checks are followed, they are what the item is doing.
  const action = (loop.follow ?? loop.lastAction).replace(/\s+/g, ' ').trim();
  const line = action === '' ? head : `${head}  ${action}`;
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
}

export function renderRunningLoops(loops: readonly RunningLoopView[]): string {
  if (loops.length === 0) return '';
  return `Loops:\n${loops.map((loop) => `  ${runningLoopLine(loop)}`).join('\n')}\n`;
}
