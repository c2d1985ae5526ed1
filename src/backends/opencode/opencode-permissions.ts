/**
 * Ralph's allowed tools (Claude's names, the ALLOWED_TOOLS setting) as OpenCode permission rules,
 * passed in OPENCODE_PERMISSION, which OpenCode lays over its own configuration:
 * - Write, Edit or MultiEdit → `edit: allow` (OpenCode's one rule for writing, editing and
 *   patching files); none of them → `edit: deny`.
 * - Bash or Bash(*) → `bash: allow`; Bash(git diff *) and the like → `bash: {"*": deny,
 *   "git diff *": allow, …}` (OpenCode's last matching pattern wins, so the catch-all goes first);
 *   the older Bash(npm:*) form becomes "npm *".
 * - WebFetch / WebSearch → `webfetch` / `websearch` allow, else deny.
 * - Reading and searching files stay as OpenCode has them (allowed); a directory outside the
 *   project is denied, because an unattended run has nobody to ask.
 * A rule OpenCode would ask about is refused in a headless run, never left waiting.
 */
export type PermissionAction = 'allow' | 'deny';
export type PermissionRules = Record<string, PermissionAction | Record<string, PermissionAction>>;

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit']);

function bashPattern(tool: string): string | undefined {
  const match = /^Bash\((.*)\)$/.exec(tool);
  if (!match) return tool === 'Bash' ? '*' : undefined;
  const inner = (match[1] ?? '').trim();
  return inner.endsWith(':*') ? `${inner.slice(0, -2)} *` : inner;
}

/** Undefined when no tools are listed: OpenCode's own configuration then decides alone. */
export function opencodePermissions(allowedTools: readonly string[]): PermissionRules | undefined {
  if (allowedTools.length === 0) return undefined;
  const tools = allowedTools.map((t) => t.trim());
  const patterns = tools.map(bashPattern).filter((p): p is string => p !== undefined && p !== '');
  let bash: PermissionRules[string] = 'deny';
  if (patterns.includes('*')) bash = 'allow';
  else if (patterns.length > 0) bash = Object.fromEntries([['*', 'deny'], ...patterns.map((p) => [p, 'allow'])]) as Record<string, PermissionAction>;
  return {
    edit: tools.some((t) => EDIT_TOOLS.has(t)) ? 'allow' : 'deny',
    bash,
    webfetch: tools.includes('WebFetch') ? 'allow' : 'deny',
    websearch: tools.includes('WebSearch') ? 'allow' : 'deny',
    external_directory: 'deny',
  };
}
