/**
 * The name of every agent Ralph can run, as `--backend` and RALPH_BACKEND take
 * them, in the order help texts list them. The settings need the names alone:
 * they live apart from the registry, whose entries reach each backend's code,
 * so a read-only command that validates the settings never loads or parses an
 * agent's adapter. The registry must have exactly one entry per name (the
 * compiler checks it).
 */
export const BACKEND_NAMES = ['claude', 'codex', 'gemini', 'opencode', 'mock'] as const;

export type BackendName = (typeof BACKEND_NAMES)[number];
