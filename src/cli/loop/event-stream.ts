import type { LoopEvent } from '../../engine/loop-events.js';
import type { Redactor } from '../../core/secret-redactor.js';

/** `value` with every string in it redacted; the very same value (no copy) when nothing changes. */
function redactValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const next = redactValue(item, redactor);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const next = redactValue(item, redactor);
      if (next !== item) changed = true;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * An event as it may leave Ralph (to a program's onEvent, to `--events`): each string redacted
 * on its own, so a secret is found whatever JSON would escape in it.
 */
export function redactEvent(event: LoopEvent, redactor: Redactor): LoopEvent {
  if (redactor.longest === 0) return event;
  return redactValue(event, redactor) as LoopEvent;
}

/** One NDJSON line of `--events`: the redacted event, newline-terminated. */
export function eventLine(event: LoopEvent, redactor: Redactor): string {
  return `${JSON.stringify(redactEvent(event, redactor))}\n`;
}
