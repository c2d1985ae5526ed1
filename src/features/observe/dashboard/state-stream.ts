import type { ServerResponse } from 'node:http';
import type { DashboardState } from './dashboard-view.js';

/** The page is never told more often than this, whatever the caller asks. */
export const MIN_STREAM_INTERVAL_MS = 1000;
/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const KEEPALIVE_TICKS = 15;

export interface StateStream {
  /** Starts a server-sent event stream on `res`: the state now, then each change. */
  add(res: ServerResponse): void;
  /** Ends every stream (the server is closing). */
  close(): void;
  readonly clients: number;
}

/**
 * Server-sent events of the dashboard state. One timer reads the `.ralph/`
 * files for all open pages, and only while a page is open; a page gets a new
 * document only when something in it changed (the read time aside).
 */
export function createStateStream(read: () => DashboardState, intervalMs: number, onError: (error: unknown) => void): StateStream {
  const clients = new Set<ServerResponse>();
  let timer: NodeJS.Timeout | undefined;
  let lastKey = '';
  let lastFrame = '';
  let ticks = 0;

  const frame = (): string => {
    const state = read();
    const key = JSON.stringify({ notice: state.notice, loops: state.loops });
    if (key !== lastKey) {
      lastKey = key;
      lastFrame = `data: ${JSON.stringify(state)}\n\n`;
    }
    return lastFrame;
  };

  const tick = (): void => {
    ticks += 1;
    const before = lastKey;
    let text: string;
    try {
      text = frame();
    } catch (error) {
      onError(error);
      return;
    }
    const payload = lastKey !== before ? text : ticks % KEEPALIVE_TICKS === 0 ? ': keepalive\n\n' : '';
    if (payload !== '') for (const res of clients) res.write(payload);
  };

  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    add(res) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      // Ask the browser to wait as long as the server does before reconnecting.
      res.write(`retry: ${Math.max(MIN_STREAM_INTERVAL_MS, intervalMs)}\n\n`);
      try {
        res.write(frame());
      } catch (error) {
        onError(error);
      }
      clients.add(res);
      res.on('close', () => {
        clients.delete(res);
        if (clients.size === 0) stopTimer();
      });
      timer ??= setInterval(tick, Math.max(MIN_STREAM_INTERVAL_MS, intervalMs));
    },
    close() {
      stopTimer();
      for (const res of clients) res.end();
      clients.clear();
    },
    get clients() {
      return clients.size;
    },
  };
}
