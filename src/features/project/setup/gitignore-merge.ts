/**
 * The Ralph part of the .gitignore template is its first block (everything up
 * to the first blank line). Merging adds the entries of that block that an
 * existing .gitignore lacks and changes nothing else.
 */
export function listRalphIgnoreEntries(template: string): string[] {
  const block = template.split(/\r?\n\s*\r?\n/, 1)[0] ?? '';
  return block
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export const MERGE_HEADER = '# Ralph state and logs (added by ralph-enable; never commit these)';

/** Returns the new text, or undefined when every Ralph entry is already there. */
export function mergeGitignore(existing: string, template: string): { text: string; added: string[] } | undefined {
  const present = new Set(existing.split(/\r?\n/).map((line) => line.trim()));
  const added = listRalphIgnoreEntries(template).filter((entry) => !present.has(entry));
  if (added.length === 0) return undefined;
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const base = existing === '' || existing.endsWith('\n') ? existing : `${existing}${eol}`;
  const gap = base === '' ? '' : eol;
  return { text: `${base}${gap}${[MERGE_HEADER, ...added].join(eol)}${eol}`, added };
}
