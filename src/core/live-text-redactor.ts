import type { Redactor } from './secret-redactor.js';

/**
 * One piece of --live output: the agent's own words (`agent`), or what Ralph adds around them
 * (line breaks between messages, tool lines, the closing line).
 */
export interface LivePart {
  text: string;
  agent: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Redacts --live output across the agent's messages. A redactor that sees one printed piece at a
 * time misses a token the agent splits over two messages (or two stream chunks): each half alone
 * is no known value, and Ralph prints a line break between them. So the agent's words are read
 * as one text, whatever Ralph put between them, and a value found in it is replaced whole, even
 * where Ralph's own text sits in the middle. The end of the agent's text is held back while it
 * could still be the start of a secret (only then: the output does not lag otherwise), together
 * with whatever Ralph added after it, so the order of the output stays as it was.
 */
export class LiveTextRedactor {
  private pending: LivePart[] = [];
  private readonly pattern: RegExp | undefined;

  constructor(private readonly redactor: Redactor) {
    this.pattern = redactor.forms.length === 0 ? undefined : new RegExp(redactor.forms.map(escapeRegExp).join('|'), 'g');
  }

  /** The output that can be shown now, given the next pieces. */
  write(parts: readonly LivePart[]): string {
    if (this.pattern === undefined) return parts.map((part) => part.text).join('');
    this.pending.push(...parts.filter((part) => part.text !== ''));
    this.replaceSecrets(this.pattern);
    return this.release(this.agentText().length - this.heldLength());
  }

  /** Everything still held (the call ended: nothing more can complete a secret). */
  end(): string {
    if (this.pattern === undefined) return '';
    return this.release(Number.POSITIVE_INFINITY);
  }

  private agentText(): string {
    return this.pending
      .filter((part) => part.agent)
      .map((part) => part.text)
      .join('');
  }

  /** Replaces each secret in the agent's words: its replacement where it starts, its other characters dropped. */
  private replaceSecrets(pattern: RegExp): void {
    const text = this.agentText();
    const spans: Array<{ start: number; end: number; replacement: string }> = [];
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      spans.push({ start, end: start + match[0].length, replacement: this.redactor.redact(match[0]) });
    }
    if (spans.length === 0) return;
    let offset = 0;
    let span = 0;
    for (const part of this.pending) {
      if (!part.agent) continue;
      let out = '';
      for (let i = 0; i < part.text.length; i += 1) {
        const at = offset + i;
        while (span < spans.length && at >= (spans[span] as { end: number }).end) span += 1;
        const current = spans[span];
        if (current === undefined || at < current.start) out += part.text[i];
        else if (at === current.start) out += current.replacement;
      }
      offset += part.text.length;
      part.text = out;
    }
  }

  /** How many characters at the end of the agent's words could be the start of a secret still to come. */
  private heldLength(): number {
    const text = this.agentText();
    let held = 0;
    for (const form of this.redactor.forms) {
      // The earliest place in the last form.length - 1 characters where the rest of the text begins the form.
      for (let at = Math.max(0, text.length - form.length + 1); at < text.length - held; at += 1) {
        if (text.charCodeAt(at) === form.charCodeAt(0) && form.startsWith(text.slice(at))) {
          held = text.length - at;
          break;
        }
      }
    }
    return held;
  }

  /** Lets out the parts before the agent's `cut`-th character (and Ralph's parts up to it); keeps the rest. */
  private release(cut: number): string {
    let out = '';
    let offset = 0;
    const kept: LivePart[] = [];
    for (const part of this.pending) {
      if (kept.length > 0) {
        kept.push(part);
        continue;
      }
      if (!part.agent) {
        out += part.text;
        continue;
      }
      const room = cut - offset;
      if (room >= part.text.length) {
        out += part.text;
        offset += part.text.length;
        continue;
      }
      out += part.text.slice(0, room);
      kept.push({ text: part.text.slice(room), agent: true });
      offset = cut;
    }
    this.pending = kept;
    return out;
  }
}
