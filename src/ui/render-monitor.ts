import { quotaWindowLines } from './quota-window-lines.js';
import type { MonitorSnapshot } from '../state/monitor-snapshot.js';
import { reviewSection } from './review-section.js';
import { clockTime } from '../core/time-format.js';
import { fitLine, part, type Line } from './styled-line.js';
import { runningLoopLine } from './queue-loops.js';
import {
  circuitSection,
  finishedSection,
  formatLogLine,
  isFinished,
  progressSection,
  statusSection,
  verifySection,
  waitingSection,
} from './monitor-sections.js';

export interface RenderOptions {
  width: number;
  color: boolean;
  /** Epoch ms: the footer clock, ages and countdowns. */
  now: number;
  /** Refresh interval shown in the footer, seconds. */
  intervalSec?: number;
  /** Terminal rows; when set the frame never has more lines (log lines go first). */
  height?: number;
  /** How many ralph.log lines to show at most (default 8, the original's). */
  maxLogLines?: number;
  /** One frame, not a refreshing screen: no Ctrl+C / refresh footer. */
  once?: boolean;
  /**
   * The frame goes to a pipe or file, not a terminal: lines are not cut to a
   * width, ids are whole and nothing animates (no spinner glyph).
   */
  plain?: boolean;
}

const DEFAULT_LOG_LINES = 8;

function heading(title: string): Line {
  return [part(title, 'bold')];
}

function missingStatus(projectDir: string): Line[] {
  return [
    [part('Status file not found. Ralph may not be running.', 'red')],
    [part(`  Looked for ${projectDir}/.ralph/status.json`, 'dim')],
    [part('  Start a loop in this project with: ralph   (or ralph --monitor for the tmux layout)')],
  ];
}

function corruptStatus(reason: string): Line[] {
  return [
    [part('Status file is corrupt: ', 'red'), part(reason, 'red')],
    [part('  The loop rewrites .ralph/status.json at its next step; if this stays, check .ralph/logs/ralph.log.', 'dim')],
  ];
}

function header(snapshot: MonitorSnapshot): Line {
  const name = snapshot.projectDir.split(/[\\/]/).filter(Boolean).pop() ?? snapshot.projectDir;
  return [part('🤖 RALPH MONITOR', 'bold'), part(' · Live Status Dashboard'), part(`  ${name}`, 'dim')];
}

function bodySections(snapshot: MonitorSnapshot, now: number, plain: boolean): Line[][] {
  const sections: Line[][] = [];
  const status = snapshot.status;
  if (status.kind === 'missing') {
    sections.push(missingStatus(snapshot.projectDir));
  } else if (status.kind === 'corrupt') {
    sections.push(corruptStatus(status.reason));
  } else {
    const doc = status.doc;
    const finished = isFinished(doc);
    sections.push([heading('Current Status'), ...statusSection(doc, snapshot, now), ...circuitSection(doc, snapshot, plain)]);
    const progress = snapshot.progress;
    if (!finished && progress.kind === 'ok' && progress.value.status === 'executing') {
      sections.push([heading('Agent Progress'), ...progressSection(progress.value, now, plain)]);
    } else if (!finished && progress.kind === 'corrupt') {
      sections.push([heading('Agent Progress'), [part(`  progress.json is corrupt: ${progress.reason}`, 'red')]]);
    }
    const verify = verifySection(doc);
    if (verify.length > 0) sections.push([heading('Verify Gate'), ...verify]);
    const review = reviewSection(doc);
    if (review.length > 0) sections.push([heading('Review'), ...review]);
    if (!finished && doc.waiting) sections.push([heading('Waiting'), ...waitingSection(doc.waiting, now)]);
    const windows = quotaWindowLines(doc.quota_windows, now);
    if (windows.length > 0) sections.push([heading('Subscription Windows'), ...windows.map((line): Line => [part(`  ${line}`)])]);
    if (finished) sections.push([heading('Finished'), ...finishedSection(doc)]);
  }
  const loops = snapshot.queueLoops ?? [];
  if (loops.length > 0) sections.push([heading('Queue'), ...loops.map((loop): Line => [part(`  ${runningLoopLine(loop)}`)])]);
  return sections;
}

/**
 * Draws one dashboard frame: the original's sections (status, progress, recent log) plus tokens,
 * cost, circuit breaker, current tool, verify gate, session, waiting and exit
 * reason. Pure: every input is in `snapshot` and `options`.
 */
export function renderMonitor(snapshot: MonitorSnapshot, options: RenderOptions): string {
  const plain = options.plain === true;
  const ruleWidth = Math.max(1, Math.floor(options.width));
  // For a pipe the width only sets the rules; a reader of the file wants whole lines.
  const width = plain ? Number.POSITIVE_INFINITY : ruleWidth;
  const rule: Line = [part('─'.repeat(ruleWidth), 'dim')];
  const top: Line[] = [header(snapshot), rule];
  const body: Line[] = [];
  for (const section of bodySections(snapshot, options.now, plain)) body.push([], ...section);
  const interval = options.intervalSec ?? 2;
  const footerText = options.once
    ? `Snapshot at ${clockTime(options.now)}`
    : `Controls: Ctrl+C to exit | Refreshes every ${formatInterval(interval)} | ${clockTime(options.now)}`;
  const footer: Line[] = [rule, [part(footerText, 'dim')]];

  let logCount = Math.min(options.maxLogLines ?? DEFAULT_LOG_LINES, snapshot.logLines.length);
  const fixed = top.length + body.length + footer.length + 2; // blank line + "Recent Activity"
  if (options.height !== undefined) logCount = Math.max(0, Math.min(logCount, options.height - fixed));
  const activity: Line[] = [[], heading('Recent Activity')];
  const logs = snapshot.logLines.slice(snapshot.logLines.length - logCount);
  if (logs.length === 0) activity.push([part('  (no log lines yet)', 'dim')]);
  for (const line of logs) activity.push(formatLogLine(line));

  let lines = [...top, ...body, ...activity];
  if (options.height !== undefined) lines = lines.slice(0, Math.max(0, options.height - footer.length));
  lines.push(...footer);
  return lines.map((line) => fitLine(line, width, options.color)).join('\n') + '\n';
}

function formatInterval(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(1)}s`;
}
