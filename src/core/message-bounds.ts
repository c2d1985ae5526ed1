/**
 * Keeping messages about user input readable whatever the input: a 5 MB key
 * or value is shown by its start, and a file with 200,000 bad lines gives a
 * screenful of problems and a count, not megabytes of them.
 */

export const MAX_SHOWN_CHARS = 80;
export const MAX_SHOWN_MESSAGES = 20;

/** `text` cut to `max` characters plus "…" when longer (never splitting a surrogate pair). */
export function clipText(text: string, max = MAX_SHOWN_CHARS): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * The first `max` messages, then one line saying how many more there were;
 * `noun` names them ("warnings", "unknown keys").
 */
export function capMessages(messages: readonly string[], noun: string, max = MAX_SHOWN_MESSAGES): string[] {
  if (messages.length <= max) return [...messages];
  return [...messages.slice(0, max), `… and ${messages.length - max} more ${noun}`];
}
