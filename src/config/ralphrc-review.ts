import { AGENT_COMMAND_FIELDS, FIELD_BY_NAME, type ConfigField } from '../config/keys.js';
import { isSecretName, judgeValue } from '../core/secret-env.js';
import { sha256Hex } from '../core/sha256.js';

/**
 * Without --sandbox the agent can write `.ralphrc`, and what it writes there is the next run's
 * configuration: `RALPH_SANDBOX=false`, another VERIFY_COMMAND, more ALLOWED_TOOLS. So Ralph keeps
 * the values a run was started with, and the next start compares the file with them: every
 * change is said (key names; values only where they are not secret), and a change to a key that
 * decides what runs or how contained it is waits for the user's yes.
 */

/** The .ralphrc values a run accepted: per key a digest, and the value itself where it may be shown. */
export interface AcceptedRalphrc {
  version: 1;
  entries: Record<string, { digest: string; shown?: string }>;
}

/** Settings whose change could hand the agent more than the user agreed to. */
const GUARDED_FIELDS: ReadonlySet<ConfigField> = new Set<ConfigField>([
  'sandbox',
  'sandboxVerify',
  'verifyOutsideSandbox',
  'sandboxAllowWrite',
  'sandboxAllowDomains',
  'verifyCommand',
  'verifyPreset',
  'verifyCwd',
  'verifyEnv',
  'allowedTools',
  'agentEnv',
  // Which program runs as the agent, and with what arguments: every agent's command and extra arguments.
  ...AGENT_COMMAND_FIELDS,
]);

export interface RalphrcChange {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  /** The values as they may be shown; undefined where a value is secret (or absent). */
  before?: string;
  after?: string;
  /** Needs the user's yes before a run goes on. */
  guarded: boolean;
}

function mayShow(key: string, value: string): boolean {
  return !isSecretName(key) && judgeValue(value).kind === 'clean';
}

/** The accepted form of a .ralphrc's entries (the last value of a key counts, as for the loader). */
export function acceptRalphrc(entries: ReadonlyArray<{ key: string; value: string }>): AcceptedRalphrc {
  const out: AcceptedRalphrc['entries'] = {};
  for (const { key, value } of entries) out[key] = { digest: sha256Hex(`${key}=${value}`), ...(mayShow(key, value) ? { shown: value } : {}) };
  return { version: 1, entries: out };
}

function isGuarded(key: string): boolean {
  const field = FIELD_BY_NAME.get(key);
  return field !== undefined && GUARDED_FIELDS.has(field);
}

/** What changed from the accepted values to the file's, keys in the file's order, then removed ones. */
export function ralphrcChanges(accepted: AcceptedRalphrc, current: AcceptedRalphrc): RalphrcChange[] {
  const changes: RalphrcChange[] = [];
  for (const [key, now] of Object.entries(current.entries)) {
    const before = accepted.entries[key];
    if (before?.digest === now.digest) continue;
    changes.push({
      key,
      kind: before === undefined ? 'added' : 'changed',
      ...(before?.shown !== undefined ? { before: before.shown } : {}),
      ...(now.shown !== undefined ? { after: now.shown } : {}),
      guarded: isGuarded(key),
    });
  }
  for (const [key, before] of Object.entries(accepted.entries)) {
    if (key in current.entries) continue;
    changes.push({ key, kind: 'removed', ...(before.shown !== undefined ? { before: before.shown } : {}), guarded: isGuarded(key) });
  }
  return changes;
}

const shown = (value: string | undefined): string => (value === undefined ? '(hidden)' : JSON.stringify(value));

/** One line per change, for the terminal and ralph.log. */
export function describeRalphrcChange(change: RalphrcChange): string {
  const mark = change.guarded ? ' [needs your confirmation]' : '';
  if (change.kind === 'added') return `${change.key} added: ${shown(change.after)}${mark}`;
  if (change.kind === 'removed') return `${change.key} removed (was ${shown(change.before)})${mark}`;
  return `${change.key} changed: ${shown(change.before)} → ${shown(change.after)}${mark}`;
}
