import type { CircuitState } from '../core/circuit-breaker.js';
import type { Analysis } from '../core/response-analyzer.js';

/** Boxes and screens the loop prints to stderr. Pure string builders. */

function box(title: string, lines: readonly string[], width = 64): string {
  const rule = '═'.repeat(width);
  return [rule, `  ${title}`, rule, ...lines.map((l) => `  ${l}`), rule].join('\n');
}

const ICON: Record<string, string> = { CLOSED: '✅', HALF_OPEN: '⚠️ ', OPEN: '🚨' };

export function renderCircuitStatus(state: CircuitState, cooldownLeftMinutes?: number): string {
  const lines = [
    `State:                 ${ICON[state.state] ?? ''} ${state.state}`,
    `Reason:                ${state.reason || '—'}`,
    `Loops since progress:  ${state.consecutive_no_progress}`,
    `Failed calls in a row: ${state.consecutive_failures}`,
    `Same error in a row:   ${state.consecutive_same_error}`,
    `Last progress:         ${state.last_progress_loop > 0 ? `Loop #${state.last_progress_loop}` : 'N/A'}`,
    `Current loop:          ${state.current_loop > 0 ? `#${state.current_loop}` : 'N/A'}`,
    `Total opens:           ${state.total_opens}`,
  ];
  if (cooldownLeftMinutes !== undefined) lines.push(`Cooldown left:         ${Math.ceil(cooldownLeftMinutes)} min (then HALF_OPEN on the next start)`);
  return box('Circuit Breaker Status', lines);
}

/** `restart` is the command line that started this loop (`ralph`, `ralph run '…'`). */
export function renderHaltScreen(state: CircuitState, restart = 'ralph'): string {
  return [
    renderCircuitStatus(state),
    '',
    '🛑 EXECUTION HALTED: Circuit Breaker Opened',
    '',
    'Ralph stopped because the loop looked stuck. Possible reasons:',
    '  • the project may already be complete (check .ralph/fix_plan.md)',
    '  • the agent keeps hitting the same error',
    '  • PROMPT.md or fix_plan.md need clarification',
    '  • the work needs a human decision',
    '',
    'Next steps:',
    '  1. Read the latest log:     tail -20 .ralph/logs/ralph.log',
    '  2. Read the latest output:  ls -t .ralph/logs/claude_output_*.log | head -1',
    '  3. Update .ralph/fix_plan.md or .ralph/PROMPT.md if needed',
    `  4. Reset and restart:       ralph --reset-circuit && ${restart}`,
    '',
  ].join('\n');
}

/**
 * How to let the agent do what it was denied: the ALLOWED_TOOLS line, for an agent that runs
 * with the tools ALLOWED_TOOLS lists; else the agent's own way (its registry entry says it).
 */
export type DenialRemedy = { allowedLine: string; suggestions: readonly string[] } | { advice: readonly string[] };

/** `restart` is the command line that started this loop (`ralph`, `ralph run '…'`). */
export function renderPermissionDenied(agent: string, denied: readonly string[], remedy: DenialRemedy, restart = 'ralph'): string {
  const lines = [`${agent} was denied these tools or commands:`, ...denied.map((d) => `  • ${d}`), ''];
  if ('advice' in remedy) lines.push(...remedy.advice);
  else {
    lines.push('Allow them in .ralphrc (ALLOWED_TOOLS), for example:', `  ${remedy.allowedLine}`);
    if (remedy.suggestions.length === 0) lines.push('  (the denied calls need a rule Ralph cannot guess; add them by hand)');
    lines.push(
      '',
      'The default rules let the agent edit, test and commit, but not push,',
      'publish or pull: allow only what this project needs (a rule such as',
      'Bash(git push *) lets it push unattended).',
    );
  }
  lines.push('', `Then run:  ralph --reset-session && ${restart}`);
  return box('PERMISSION DENIED - Loop Halted', lines, 72);
}

export function renderAnalysisSummary(a: Analysis): string {
  const signal = a.exitSignalExplicit ? String(a.exitSignal) : `${a.exitSignal} (implicit)`;
  return [
    `  Exit signal: ${signal}   Status: ${a.status ?? '—'}   Work: ${a.workType ?? '—'}   Tests: ${a.testsStatus ?? '—'}`,
    `  Progress: ${a.hasProgress ? `yes (${a.progressSources.join(', ')})` : 'none'}   Files changed: ${a.filesModified}${a.isStuck ? '   ⚠ same errors as the last two loops' : ''}`,
    `  Summary: ${a.workSummary}`,
  ].join('\n');
}
