import { NO_REDACTION, createRedactor, type Redactor, type SecretValue } from '../core/secret-redactor.js';

/**
 * The redactor of this process. It is installed once at start-up, from the
 * user's environment, and consulted by every place that writes a file under
 * .ralph/ or prints to the terminal, so no writer can forget it.
 */
// Process-wide: the secrets only ever grow, and every loop of the process redacts every secret any of them knows (a
// secret of one loop has no place in another's files either); a writer that reads them here cannot be handed none.
let known: SecretValue[] = [];
// Process-wide: (as above) the redactors made from `known`, replaced whenever it grows.
let active: Redactor = NO_REDACTION;
// Process-wide: (as above) for raw bytes.
let activeBytes: Redactor = NO_REDACTION;

/** Bytes as a string of the same length (one char per byte), so byte streams can be redacted losslessly. */
export function toByteString(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Adds secret values to look for (start-up environment, then explicit settings). */
export function addSecretValues(secrets: readonly SecretValue[]): void {
  known = [...known, ...secrets];
  active = createRedactor(known);
  activeBytes = createRedactor(known, toByteString);
}

export function redactText(text: string): string {
  return active.redact(text);
}

/** The redactor for text, and the one for raw bytes read as latin1. */
export function currentRedactors(): { text: Redactor; bytes: Redactor } {
  return { text: active, bytes: activeBytes };
}
