import { NO_REDACTION, createRedactor, type Redactor, type SecretValue } from '../core/secret-redactor.js';

/**
 * The secrets this process knows, and the redactors made from them. Secrets are learnt at
 * start-up from the user's environment and later from explicit settings, a fetched GitHub token
 * or the sandbox's proxy password. Ralph's state writers (json-file.ts, live-log-file.ts,
 * receipt-log.ts, document-writes.ts) redact everything they write with them, so no writer can
 * forget it; a loop's own parts (its backend, its subscribers, its verify gate) are handed the
 * redactor by the loop that runs them.
 */
// Process-wide: the secrets are facts of the operating-system process (its environment, the token it fetched, the
// password of the one sandbox it holds), not of a loop: a value one loop learnt has no place in another loop's
// files either. Passing them to the writers instead would add a parameter to every file Ralph writes, and one
// writer handed an empty list would print a secret: the guarantee is that a writer cannot be handed none. Only grows.
let known: SecretValue[] = [];
// Cache: the redactor made from `known` (the same for every loop, since `known` is); rebuilt whenever it grows.
let active: Redactor = NO_REDACTION;
// Cache: (as above) the redactor for raw bytes read as latin1.
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
