/**
 * Edits single values in a .ralphrc text without disturbing anything else in
 * it (comments, order, the user's other settings). Pure string functions.
 */

/**
 * A value written so that Ralph's .ralphrc parser reads back exactly `value`:
 * bare when it is a plain word, otherwise double-quoted with `\`, `"` and `$`
 * escaped. Backticks are refused inside double quotes by the parser, so a
 * value with a backtick is single-quoted (read literally).
 */
export function quoteRalphrcValue(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('a .ralphrc value must fit on one line');
  if (/^[A-Za-z0-9_./:@+-]+$/.test(value)) return value;
  if (!value.includes('`')) return `"${value.replace(/[\\"$]/g, (ch) => `\\${ch}`)}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new Error('a .ralphrc value cannot contain both a backtick and a single quote');
}

export interface SetValueOptions {
  /** Write the line as a comment (`# KEY=value`): documented but not in effect. */
  commented?: boolean;
  /** Comment lines placed directly above the value line. */
  note?: readonly string[];
}

function buildKeyPatterns(key: string): { active: RegExp; commented: RegExp } {
  return {
    active: new RegExp(`^\\s*(export\\s+)?${key}=`),
    commented: new RegExp(`^\\s*#\\s*${key}=`),
  };
}

/**
 * Sets `key` to `value`. The key's active line is replaced; without one, its
 * commented default line (`# KEY=…`) is; without either the line is appended.
 */
export function setRalphrcValue(text: string, key: string, value: string, options: SetValueOptions = {}): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`invalid .ralphrc key: ${key}`);
  const lines = text.split('\n');
  const { active, commented } = buildKeyPatterns(key);
  let index = lines.findIndex((line) => active.test(line));
  if (index === -1) index = lines.findIndex((line) => commented.test(line));
  const valueLine = `${options.commented ? '# ' : ''}${key}=${quoteRalphrcValue(value)}`;
  const block = [...(options.note ?? []).map((n) => `# ${n}`), valueLine];
  if (index === -1) {
    const trailingNewline = text.endsWith('\n');
    const body = trailingNewline ? lines.slice(0, -1) : lines;
    return `${[...body, ...block].join('\n')}\n`;
  }
  lines.splice(index, 1, ...block);
  return lines.join('\n');
}
