/**
 * Turns a PRD or spec into fix_plan.md tasks without calling Claude.
 * When the document has checkboxes, those are its tasks (normalized
 * to unchecked); otherwise numbered and bulleted items are. Code blocks, HTML
 * comments and tables are skipped. Priority comes from keywords in the item,
 * else in the nearest heading: critical/urgent/p0 → High, optional/future/
 * nice to have → Optional (non-blocking), low priority → Low, else Medium.
 */
import { proseLines } from '../../../core/markdown-prose.js';

export type TaskPriority = 'high' | 'medium' | 'low' | 'optional';

export interface PrdTask {
  text: string;
  priority: TaskPriority;
}

export const MAX_PRD_TASKS = 30;
const MAX_TASK_CHARS = 200;

const HIGH = /\b(critical|urgent|p0|must[- ]have|high[- ]priority|blocker)\b/i;
const OPTIONAL = /\b(optional|future|nice[- ]to[- ]have|stretch goals?)\b/i;
const LOW = /\b(low[- ]priority|p3|could[- ]have)\b/i;

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const CHECKBOX = /^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;

/** Priority named by keywords in `text`, if any. */
export function detectPriority(text: string): TaskPriority | undefined {
  if (HIGH.test(text)) return 'high';
  if (OPTIONAL.test(text)) return 'optional';
  if (LOW.test(text)) return 'low';
  return undefined;
}

function cleanTaskText(raw: string): string {
  const text = raw.replace(/\s+/g, ' ').trim();
  return text.length > MAX_TASK_CHARS ? `${text.slice(0, MAX_TASK_CHARS - 1)}…` : text;
}

interface Candidate extends PrdTask {
  checkbox: boolean;
}

function collectCandidates(document: string): Candidate[] {
  const out: Candidate[] = [];
  let context: TaskPriority | undefined;
  for (const { line } of proseLines(document)) {
    if (line.trimStart().startsWith('|')) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      context = detectPriority(heading[1] ?? '');
      continue;
    }
    const checkbox = CHECKBOX.exec(line);
    const item = checkbox ?? NUMBERED.exec(line) ?? BULLET.exec(line);
    if (!item) continue;
    const text = cleanTaskText(item[1] ?? '');
    if (!/[\p{L}\p{N}]{2}/u.test(text)) continue;
    out.push({ text, priority: detectPriority(text) ?? context ?? 'medium', checkbox: checkbox !== null });
  }
  return out;
}

export function extractPrdTasks(document: string, limit = MAX_PRD_TASKS): PrdTask[] {
  const candidates = collectCandidates(document);
  const chosen = candidates.some((c) => c.checkbox) ? candidates.filter((c) => c.checkbox) : candidates;
  const seen = new Set<string>();
  const tasks: PrdTask[] = [];
  for (const { text, priority } of chosen) {
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tasks.push({ text, priority });
    if (tasks.length >= limit) break;
  }
  return tasks;
}

const SECTIONS: readonly [TaskPriority, string][] = [
  ['high', 'High Priority'],
  ['medium', 'Medium Priority'],
  ['low', 'Low Priority'],
  ['optional', 'Optional'],
];

/**
 * fix_plan.md holding `tasks`, all unchecked, in the template's sections.
 * A plan whose tasks are all optional would count as complete before the
 * first iteration, so it gets one blocking task pointing at the source.
 */
export function renderFixPlan(imported: readonly PrdTask[], sourceName: string): string {
  const tasks = imported.some((t) => t.priority !== 'optional')
    ? imported
    : [{ text: `Implement the requirements described in ${sourceName}`, priority: 'high' as const }, ...imported];
  const lines = [
    '# Fix Plan',
    '',
    `Tasks imported from ${sourceName} by ralph-enable. Ralph works through this list from top to`,
    'bottom, one task per iteration. Tick a task (`- [x]`) when it is done and tested; add new tasks',
    'where they belong.',
  ];
  for (const [priority, title] of SECTIONS) {
    const body = tasks.filter((t) => t.priority === priority).map((t) => `- [ ] ${t.text}`);
    if (priority === 'optional') body.unshift('<!-- Tasks in this section never block completion: Ralph may stop while they are still open. -->');
    lines.push('', `## ${title}`, ...(body.length > 0 ? ['', ...body] : []));
  }
  lines.push(
    '',
    '## Completed',
    '',
    '- [x] Ralph enabled for this project',
    '',
    '## Notes',
    '',
    `- ${imported.length} task(s) imported from ${sourceName}; check their priorities.`,
    '',
  );
  return lines.join('\n');
}
