import type { PermissionDenial } from '../agent-result.js';

/**
 * Permission denials. An agent's `Bash(cmd *)` rules may not match a whole command line
 * (Claude Code's do not match compound commands such as `mvn test 2>&1 | tail`), so a denial
 * whose base command is already allowed is the agent's rule matching, not a missing
 * permission: the loop continues instead of halting.
 */

/** `  mvn clean 2>&1 | tail` → `mvn`. */
export function extractBaseCommand(command: string): string {
  const trimmed = command.replace(/^\s+/, '');
  const m = /^[^\s|;&<>]*/.exec(trimmed);
  return m ? m[0] : '';
}

/** Whether an ALLOWED_TOOLS entry covers every command starting with `base`. */
export function baseCommandAllowed(base: string, allowedTools: readonly string[]): boolean {
  if (base === '') return false;
  for (const raw of allowedTools) {
    const tool = raw.trim();
    if (tool === '*' || tool === 'Bash(*)' || tool === 'Bash') return true;
    const m = /^Bash\((.*)\)$/s.exec(tool);
    if (!m) continue;
    const pattern = (m[1] as string).trim();
    if (!pattern.startsWith(base)) continue;
    const rest = pattern.slice(base.length);
    // `Bash(npm*)` or `Bash(npm:*)`: anything after the base.
    if (rest.startsWith('*') || rest.startsWith(':*')) return true;
    // `Bash(git diff *)`: a sub-command family of the base also counts.
    if (rest.startsWith(' ') && rest.includes('*')) return true;
  }
  return false;
}

export interface DenialAssessment {
  /** Denials that mean a tool or command is really missing from ALLOWED_TOOLS. */
  real: PermissionDenial[];
  /** Denials explained by the compound-command limitation. */
  compound: PermissionDenial[];
  /** Display form of each denial: `Bash(npm test)` or the tool name. */
  deniedCommands: string[];
}

export function describeDenial(denial: PermissionDenial): string {
  if (denial.detail !== undefined) {
    const cmd = denial.detail.length > 60 ? `${denial.detail.slice(0, 60)}…` : denial.detail;
    return `${denial.tool}(${cmd})`;
  }
  return denial.tool;
}

export function assessDenials(denials: readonly PermissionDenial[], allowedTools: readonly string[]): DenialAssessment {
  const deniedCommands = denials.map(describeDenial);
  if (denials.length === 0) return { real: [], compound: [], deniedCommands };
  const allCovered = denials.every((d) => d.tool === 'Bash' && d.detail !== undefined && baseCommandAllowed(extractBaseCommand(d.detail), allowedTools));
  return allCovered ? { real: [], compound: [...denials], deniedCommands } : { real: [...denials], compound: [], deniedCommands };
}

/** The rules to add to ALLOWED_TOOLS so the denied calls are allowed next time. */
export function suggestAllowedTools(denials: readonly PermissionDenial[], allowedTools: readonly string[]): string[] {
  const suggestions: string[] = [];
  for (const denial of denials) {
    let rule: string;
    if (denial.tool === 'Bash' && denial.detail) {
      const base = extractBaseCommand(denial.detail);
      if (base === '' || baseCommandAllowed(base, allowedTools)) continue;
      rule = `Bash(${base} *)`;
    } else {
      rule = denial.tool;
    }
    if (!allowedTools.includes(rule) && !suggestions.includes(rule)) suggestions.push(rule);
  }
  return suggestions;
}

/** Pipes, redirects, chained or substituted commands: more than one plain command. */
export function isCompoundCommand(command: string): boolean {
  return /[|;&<>`]|\$\(/.test(command);
}

/**
 * The line that says an agent refused commands ALLOWED_TOOLS already allows by their base
 * command, in the agent's own name; "compound" only for commands that are.
 * `deniedCommands` are the display forms (`Bash(npm test | tail)`).
 */
export function describeRefusedDespiteRule(agent: string, deniedCommands: readonly string[]): string {
  const n = deniedCommands.length;
  const compound = deniedCommands.some((c) => isCompoundCommand(/^Bash\((.*)\)$/s.exec(c)?.[1] ?? c));
  const what = `${n} ${compound ? 'compound ' : ''}command${n === 1 ? '' : 's'}`;
  const why = compound ? 'pipes, redirects and chained commands can fall outside a Bash(cmd *) rule' : 'its rule matching did not cover the whole command';
  return `${agent} refused ${what} whose base command is already in ALLOWED_TOOLS: ${deniedCommands.join(', ')}. The rule is there; ${why}. The loop continues.`;
}
