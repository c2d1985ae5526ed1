/**
 * The lines of a markdown text that hold its prose: code fences (``` or ~~~, closed by the same
 * marker) and HTML comments are passed over, and a CRLF file reads like an LF file. Both readers
 * of task lists (fix_plan.md, a PRD turned into tasks) look only at these lines, so a checkbox in
 * an example block or a commented-out task is never a task.
 */
const FENCE = /^\s*(```|~~~)/;

export interface ProseLine {
  /** The line without its line ending. */
  line: string;
  /** 0-based position of the line in the text. */
  index: number;
}

export function proseLines(text: string): ProseLine[] {
  const out: ProseLine[] = [];
  let fence: string | undefined;
  let inComment = false;
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.replace(/\r$/, '');
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      return;
    }
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (fence === marker) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    if (line.trimStart().startsWith('<!--')) {
      if (!line.includes('-->')) inComment = true;
      return;
    }
    out.push({ line, index });
  });
  return out;
}
