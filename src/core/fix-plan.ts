/**
 * fix_plan.md as a task list: `- [ ]` / `- [x]` items,
 * where items under an optional section (OPTIONAL_SECTIONS, matched by heading
 * title, covering deeper sub-headings) do not block completion. Dates, notes
 * and other bracketed text are not checkboxes; code fences and HTML comments
 * are skipped; CRLF files count the same as LF files.
 */
import { proseLines } from './markdown-prose.js';

export interface PlanTask {
  line: number;
  text: string;
  checked: boolean;
  optional: boolean;
  section: string;
}

export interface FixPlanSummary {
  tasks: PlanTask[];
  blockingUnchecked: number;
  optionalUnchecked: number;
  checked: number;
  /** Every blocking task is checked and there is at least one checked task. */
  complete: boolean;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const CHECKBOX = /^\s*-\s+\[([ xX])\](?=\s|$)(.*)$/;

export function parseFixPlan(text: string, optionalSections: readonly string[]): FixPlanSummary {
  const optional = new Set(optionalSections.map((s) => s.trim().toLowerCase()).filter(Boolean));
  const tasks: PlanTask[] = [];
  let optionalLevel: number | undefined;
  let section = '';
  for (const { line, index } of proseLines(text)) {
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      const title = (heading[2] as string).trim();
      section = title;
      if (optionalLevel !== undefined && level <= optionalLevel) optionalLevel = undefined;
      if (optionalLevel === undefined && optional.has(title.toLowerCase())) optionalLevel = level;
      continue;
    }
    const box = CHECKBOX.exec(line);
    if (!box) continue;
    tasks.push({
      line: index + 1,
      text: (box[2] as string).trim(),
      checked: box[1] !== ' ',
      optional: optionalLevel !== undefined,
      section,
    });
  }
  const checked = tasks.filter((t) => t.checked).length;
  const blockingUnchecked = tasks.filter((t) => !t.checked && !t.optional).length;
  const optionalUnchecked = tasks.filter((t) => !t.checked && t.optional).length;
  return { tasks, blockingUnchecked, optionalUnchecked, checked, complete: blockingUnchecked === 0 && checked > 0 };
}

/** Checks the first `count` unchecked blocking tasks; returns the new text. */
export function checkFirstTasks(text: string, optionalSections: readonly string[], count: number): string {
  if (count <= 0) return text;
  const summary = parseFixPlan(text, optionalSections);
  const lines = text.split('\n');
  let left = count;
  for (const task of summary.tasks) {
    if (left === 0) break;
    if (task.checked || task.optional) continue;
    const i = task.line - 1;
    lines[i] = (lines[i] as string).replace(/\[ \]/, '[x]');
    left -= 1;
  }
  return lines.join('\n');
}
