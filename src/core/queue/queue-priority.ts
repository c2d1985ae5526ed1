import { DEFAULT_PRIORITY, MAX_PRIORITY, MIN_PRIORITY } from './queue-item.js';

/**
 * The priority a set of issue labels names: `P1`, `p1`, `priority: P1`,
 * `priority/P1`, `priority-p1` or `priority:1`. With several, the most urgent
 * one wins; with none, `undefined` (the caller picks the default).
 */
const LABEL = /^(?:priority\s*[:/-]?\s*)?p(\d)$|^priority\s*[:/-]\s*(\d)$/i;

export function priorityFromLabel(label: string): number | undefined {
  const match = LABEL.exec(label.trim());
  if (!match) return undefined;
  return Number(match[1] ?? match[2]);
}

export function priorityFromLabels(labels: readonly string[]): number | undefined {
  const found = labels.map(priorityFromLabel).filter((p): p is number => p !== undefined);
  return found.length > 0 ? Math.min(...found) : undefined;
}

/** `--priority N`: a whole number 0–9, or `P0`–`P9`. */
export function parsePriority(text: string): number | undefined {
  const match = /^[pP]?(\d)$/.exec(text.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  return n >= MIN_PRIORITY && n <= MAX_PRIORITY ? n : undefined;
}

export function formatPriority(priority: number): string {
  return `P${priority}`;
}

export { DEFAULT_PRIORITY };
