/**
 * Gemini CLI's tool names and Ralph's. ALLOWED_TOOLS, the live view and the permission-denial
 * screen speak one vocabulary for every agent (Write, Edit, Bash, …), so the Gemini backend
 * translates in both directions: Ralph's rules into Gemini's tools, Gemini's calls back into
 * Ralph's names. A tool with no counterpart keeps Gemini's own name.
 */
const GEMINI_TO_RALPH: Readonly<Record<string, string>> = {
  write_file: 'Write',
  replace: 'Edit',
  read_file: 'Read',
  read_many_files: 'Read',
  list_directory: 'LS',
  glob: 'Glob',
  grep_search: 'Grep',
  run_shell_command: 'Bash',
  web_fetch: 'WebFetch',
  google_web_search: 'WebSearch',
  write_todos: 'TodoWrite',
};

/** The Gemini tools each of Ralph's tool names stands for (Bash is handled with its commands). */
export const RALPH_TO_GEMINI: Readonly<Record<string, readonly string[]>> = {
  Write: ['write_file'],
  Edit: ['replace'],
  MultiEdit: ['replace'],
  Read: ['read_file', 'read_many_files'],
  LS: ['list_directory'],
  Glob: ['glob'],
  Grep: ['grep_search'],
  WebFetch: ['web_fetch'],
  WebSearch: ['google_web_search'],
  TodoWrite: ['write_todos'],
};

/** Ralph's name of a Gemini tool. */
export function ralphToolName(geminiName: string): string {
  return GEMINI_TO_RALPH[geminiName] ?? geminiName;
}

const ARGUMENT_KEYS = ['command', 'file_path', 'dir_path', 'path', 'pattern', 'url', 'query', 'prompt', 'description'];

/** What a Gemini tool call works on (its command, file or pattern), in one short line. */
export function geminiToolArgument(parameters: unknown): string | undefined {
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  for (const key of ARGUMENT_KEYS) {
    const value: unknown = Reflect.get(parameters, key);
    if (typeof value === 'string' && value.trim() !== '') {
      const line = value.trim().split('\n', 1)[0] ?? '';
      return line.length > 120 ? `${line.slice(0, 120)}…` : line;
    }
  }
  return undefined;
}
