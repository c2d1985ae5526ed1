import { isObject, str } from './json-fields.js';

/** The first line of a text, cut to `max` characters. */
export function firstLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** What a Claude tool call works on (its command, file, pattern or task), in one short line. */
export function toolArgument(name: string, input: unknown): string | undefined {
  if (!isObject(input)) return undefined;
  const pick = (key: string): string | undefined => str(input[key]);
  const raw =
    name === 'Bash'
      ? pick('command')
      : ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(name)
        ? (pick('file_path') ?? pick('notebook_path'))
        : ['Glob', 'Grep'].includes(name)
          ? pick('pattern')
          : ['Agent', 'Task'].includes(name)
            ? pick('description')
            : (pick('url') ?? pick('query') ?? pick('description'));
  return raw === undefined ? undefined : firstLine(raw, 120);
}
