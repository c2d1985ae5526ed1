/**
 * While a sandboxed command runs, the sandbox runtime keeps the agent from writing a few files
 * that would let it run code outside (shell start-up files, git and editor settings, an MCP
 * server list) by mounting something read-only over them. Where such a file does not exist
 * yet, the mount needs a point to land on, so an empty file (or, for `.claude`, an empty
 * folder) appears in the project for as long as the command runs. These are their names,
 * relative to the project root, as the runtime's Linux side creates them.
 */
export const PLACEHOLDER_FILES: readonly string[] = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.mcp.json',
  '.vscode',
  '.idea',
];

/** Folders that stand in for a missing `.claude`: the folder itself, or its two guarded parts when it exists. */
export const PLACEHOLDER_CLAUDE_DIR = '.claude';
export const PLACEHOLDER_CLAUDE_PARTS: readonly string[] = ['.claude/commands', '.claude/agents'];

/**
 * Ralph's own files the sandbox holds read-only (src/state/ralph-files-for-sandbox.ts) get the
 * same empty stand-in where they are missing: `.ralphrc` and names under `.ralph/`.
 */
export function isRalphFilePlaceholder(name: string): boolean {
  return name === '.ralphrc' || (name.startsWith('.ralph/') && !name.split('/').includes('..'));
}

/** Every name a placeholder can have. */
export const PLACEHOLDER_NAMES: readonly string[] = [...PLACEHOLDER_FILES, PLACEHOLDER_CLAUDE_DIR, ...PLACEHOLDER_CLAUDE_PARTS];

/** The lines Ralph keeps in .git/info/exclude while a sandboxed run may create placeholders. */
export const EXCLUDE_BEGIN = '# ralph --sandbox: placeholders of the sandbox runtime (removed when the run ends)';
export const EXCLUDE_END = '# end of ralph --sandbox placeholders';

/**
 * The exclude block for the placeholders a run may create: only names missing when it starts
 * (a file the project already has is the user's, and git must keep seeing it), anchored at the
 * root so a file of that name deeper in the tree is untouched.
 */
export function placeholderExcludeBlock(missing: readonly string[]): string {
  if (missing.length === 0) return '';
  return [EXCLUDE_BEGIN, ...missing.map((name) => `/${name}`), EXCLUDE_END, ''].join('\n');
}

/** The text of an exclude file without Ralph's block (every copy of it, in case a crash left two). */
export function withoutPlaceholderBlock(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (line === EXCLUDE_BEGIN) inside = true;
    else if (inside && line === EXCLUDE_END) inside = false;
    else if (!inside) kept.push(line);
  }
  return kept.join('\n');
}
