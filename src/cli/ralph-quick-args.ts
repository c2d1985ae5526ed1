import type { StatusAction } from './commands/status-commands.js';
import type { RalphArgs } from './ralph-args.js';

/**
 * The read-only commands scripts poll most (`ralph --status [--json]`,
 * `ralph --circuit-status [--json]`) read without commander: loading the
 * parser and every option it declares costs more than answering them. Any
 * other argv, or these flags with anything else, goes to the parser, so its
 * checks and errors stay the only ones.
 */

const QUICK_ACTIONS = new Map<string, StatusAction>([
  ['--status', 'status'],
  ['--circuit-status', 'circuit-status'],
]);

/** What the parser would return for argv, when argv is one of the quick shapes; undefined otherwise. */
export function quickRalphArgs(argv: readonly string[]): (RalphArgs & { action: StatusAction }) | undefined {
  const json = argv.includes('--json');
  const rest = argv.filter((a) => a !== '--json');
  if (rest.length !== 1 || argv.length - rest.length > 1) return undefined;
  const action = QUICK_ACTIONS.get(rest[0] as string);
  if (action === undefined) return undefined;
  return { action, flags: {}, json, dryRun: false, inspect: { format: 'summary', events: [], topics: [], limit: 100 } };
}
