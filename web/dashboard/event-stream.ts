/**
 * The server's state stream (text/event-stream), read with fetch so that the
 * request carries the token in a header: EventSource cannot send a header,
 * and the token is never put in a cookie or an address.
 */

export interface StreamHandlers {
  /** The stream is open (again). */
  onOpen(): void;
  /** One `data:` event. */
  onData(data: string): void;
  /** The connection dropped; a new one is tried after the delay the server asked for. */
  onLost(): void;
  /** The server refused the token: nothing more is tried. */
  onRefused(): void;
}

/** The fields of one event block of a stream (the text between two blank lines). */
export function parseEventBlock(block: string): { data: string | null; retryMs: number | null } {
  const data: string[] = [];
  let retryMs: number | null = null;
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  }
  return { data: data.length > 0 ? data.join('\n') : null, retryMs };
}

/** Reads the stream at `path` until the server refuses the token, reconnecting after each drop. */
export function followEvents(path: string, headers: Record<string, string>, handlers: StreamHandlers): void {
  let retryMs = 1000;

  const readOnce = async (): Promise<'lost' | 'refused'> => {
    let res: Response;
    try {
      res = await fetch(path, { headers, cache: 'no-store' });
    } catch {
      return 'lost';
    }
    if (res.status === 401) return 'refused';
    if (!res.ok || res.body === null) return 'lost';
    handlers.onOpen();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'lost';
        buffer += value;
        for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
          const event = parseEventBlock(block);
          if (event.retryMs !== null) retryMs = event.retryMs;
          if (event.data !== null) handlers.onData(event.data);
        }
      }
    } catch {
      return 'lost';
    }
  };

  const run = async (): Promise<void> => {
    for (;;) {
      const outcome = await readOnce();
      if (outcome === 'refused') return handlers.onRefused();
      handlers.onLost();
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  void run();
}
