import { collectSecretValues, type Redactor } from '../core/secret-redactor.js';
import { addSecretValues, currentRedactors } from '../state/redaction.js';
import { writeStdout } from './direct-stdout.js';
import { prepareWhenCreated } from './output-streams.js';

/** `chunk` with the secrets `redactor` knows replaced; the very same bytes when none occurs (--live output comes as bytes). */
function redactBytes(chunk: Uint8Array, redactor: Redactor): Uint8Array {
  if (redactor.longest === 0) return chunk;
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
  const redacted = redactor.redact(text);
  return redacted === text ? chunk : Buffer.from(redacted, 'latin1');
}

/**
 * The terminal edge of redaction: whatever any part of Ralph prints — log
 * lines, `--config`, a verify failure, the agent's live output — passes
 * through here, so the value of a secret the user exported never appears on
 * the screen or in a captured CI log.
 */
function redactWrites(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  (stream as { write: (...args: unknown[]) => boolean }).write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const { text, bytes } = currentRedactors();
    if (typeof chunk === 'string') return write(text.redact(chunk), ...rest);
    if (chunk instanceof Uint8Array) return write(redactBytes(chunk, bytes), ...rest);
    return write(chunk, ...rest);
  };
}

/** Learns the secrets of this process's environment and redacts them on stdout and stderr. */
export function redactProcessOutput(env: Readonly<Record<string, string | undefined>>): void {
  addSecretValues(collectSecretValues(env));
  prepareWhenCreated('stdout', redactWrites);
  prepareWhenCreated('stderr', redactWrites);
}

/** Prints `text` on stdout, secrets redacted, without creating `process.stdout` (see direct-stdout.ts). */
export function printRedacted(text: string): void {
  writeStdout(currentRedactors().text.redact(text));
}
