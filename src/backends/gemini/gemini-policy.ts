import { RALPH_TO_GEMINI } from './gemini-tool-names.js';

/**
 * Ralph's permission setting for Gemini CLI. Claude Code takes ALLOWED_TOOLS as --allowedTools;
 * Gemini CLI has approval modes and a policy engine instead. In its default approval mode a
 * headless Gemini refuses every tool that would ask for confirmation (writes, shell commands)
 * and reports the refusal as a policy violation, so Ralph runs it in that mode with a policy
 * file that allows exactly what ALLOWED_TOOLS allows:
 *
 *   Write → write_file, Edit → replace, Read/LS/Glob/Grep → the read tools,
 *   Bash → every shell command, Bash(git commit *) or Bash(git commit:*) → commands that
 *   start with "git commit", WebFetch/WebSearch → web_fetch/google_web_search.
 *
 * Gemini refuses an allowed command that redirects its output (`git log > x`) unless the rule
 * says otherwise: a bare Bash rule says so (any command may already write any file), a command
 * rule does not, so `Bash(git log *)` never becomes a way to write files.
 *
 * A rule Gemini cannot express (a pattern with "*" inside the command, an MCP tool) is left
 * out and named, so the user knows it does not apply. `--yolo` in GEMINI_EXTRA_ARGS replaces
 * all of this with Gemini's "approve everything".
 */
export interface GeminiPolicy {
  /** The policy file's TOML text, or '' when nothing is allowed beyond Gemini's read-only defaults. */
  toml: string;
  /** ALLOWED_TOOLS entries with no Gemini counterpart. */
  untranslated: string[];
}

/** Above Gemini's own rules in the same tier, so a rule of ALLOWED_TOOLS wins over a built-in "ask". */
const PRIORITY = 100;

/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (text: string): string => JSON.stringify(text);

interface Rules {
  tools: Set<string>;
  prefixes: Set<string>;
  anyCommand: boolean;
}

/** The command prefix of a Bash rule ("git commit *" → "git commit"), undefined for all commands, null when inexpressible. */
function commandPrefix(pattern: string): string | undefined | null {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed === '*') return undefined;
  const prefix = trimmed.replace(/(?::\*|\s+\*)$/, '').trim();
  return prefix.includes('*') || prefix === '' ? null : prefix;
}

function addRule(rule: string, rules: Rules, untranslated: string[]): void {
  const bash = /^Bash(?:\((.*)\))?$/s.exec(rule.trim());
  if (bash) {
    const prefix = bash[1] === undefined ? undefined : commandPrefix(bash[1]);
    if (prefix === null) untranslated.push(rule);
    else if (prefix === undefined) rules.anyCommand = true;
    else rules.prefixes.add(prefix);
    return;
  }
  const tools = RALPH_TO_GEMINI[rule.trim()];
  if (tools) tools.forEach((tool) => rules.tools.add(tool));
  else untranslated.push(rule);
}

export function buildGeminiPolicy(allowedTools: readonly string[]): GeminiPolicy {
  const rules: Rules = { tools: new Set(), prefixes: new Set(), anyCommand: false };
  const untranslated: string[] = [];
  for (const rule of allowedTools) addRule(rule, rules, untranslated);
  const blocks = [...rules.tools].map((tool) => `[[rule]]\ntoolName = ${tomlString(tool)}\ndecision = "allow"\npriority = ${PRIORITY}\n`);
  if (rules.anyCommand) blocks.push(`[[rule]]\ntoolName = "run_shell_command"\nallowRedirection = true\ndecision = "allow"\npriority = ${PRIORITY}\n`);
  else if (rules.prefixes.size > 0) {
    const prefixes = [...rules.prefixes].map(tomlString).join(', ');
    blocks.push(`[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = [${prefixes}]\ndecision = "allow"\npriority = ${PRIORITY}\n`);
  }
  const toml = blocks.length === 0 ? '' : `# Written by Ralph from ALLOWED_TOOLS for this call.\n\n${blocks.join('\n')}`;
  return { toml, untranslated };
}

/** Above every rule of ALLOWED_TOOLS and Gemini's own: a read-only call's denials win. */
const DENY_PRIORITY = 900;

/**
 * The policy of a read-only call (the reviewer): the reading tools allowed, and the writing tools
 * and the shell denied above anything the user's own policies or settings allow.
 */
export function buildGeminiReadOnlyPolicy(tools: readonly string[], deniedTools: readonly string[]): GeminiPolicy {
  const allowed = buildGeminiPolicy(tools.filter((tool) => !/^Bash\b/.test(tool)));
  const denied = new Set<string>();
  for (const tool of deniedTools) {
    if (/^Bash\b/.test(tool)) denied.add('run_shell_command');
    else RALPH_TO_GEMINI[tool]?.forEach((name) => denied.add(name));
  }
  const blocks = [...denied].map((tool) => `[[rule]]\ntoolName = ${tomlString(tool)}\ndecision = "deny"\npriority = ${DENY_PRIORITY}\n`);
  const toml = `# Written by Ralph for a read-only call: reading only.\n\n${[allowed.toml.replace(/^# .*\n\n/, ''), ...blocks].filter((b) => b !== '').join('\n')}`;
  return { toml, untranslated: allowed.untranslated };
}
