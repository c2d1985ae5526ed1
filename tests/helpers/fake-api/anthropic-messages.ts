import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Anthropic Messages API on 127.0.0.1, what the real Claude Code CLI talks to when
 * ANTHROPIC_BASE_URL points at it. Each conversation request (one that offers tools) takes the
 * next scripted turn: text, tool calls (which Claude Code really runs: write a file, run a
 * command), or both; requests the CLI makes on the side (no tools offered: a title, a quota
 * check) get a short text and use no turn. Every request is recorded.
 */
export interface MessagesTurn {
  text?: string;
  toolUse?: Array<{ name: string; input: Record<string, unknown> }>;
  /** An HTTP error with the API's error document and headers, given to this and every later request. */
  error?: { status: number; type: string; message: string; headers?: Record<string, string> };
  /**
   * Response headers of this turn's answer, e.g. the subscription windows' `anthropic-ratelimit-unified-*`
   * headers, from which the real CLI makes its stream-json `rate_limit_event` (it reads them when logged in
   * as a subscriber: CLAUDE_CODE_OAUTH_TOKEN). A function is asked when the answer is sent (a reset
   * time relative to the answer).
   */
  headers?: Record<string, string> | (() => Record<string, string>);
}

export interface RecordedMessagesRequest {
  path: string;
  apiKey: string | undefined;
  body: Record<string, unknown>;
  /** When the request came (epoch ms). */
  at: number;
}

export interface FakeMessagesApi {
  url: string;
  requests: RecordedMessagesRequest[];
  /** Conversation turns served so far. */
  served(): number;
  close(): Promise<void>;
}

const USAGE = { input_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

function contentOf(turn: MessagesTurn, n: number): Array<Record<string, unknown>> {
  return [
    ...(turn.text !== undefined ? [{ type: 'text', text: turn.text }] : []),
    ...(turn.toolUse ?? []).map((call, i) => ({ type: 'tool_use', id: `toolu_fake_${n}_${i}`, name: call.name, input: call.input })),
  ];
}

function headersOf(turn: MessagesTurn): Record<string, string> {
  return typeof turn.headers === 'function' ? turn.headers() : (turn.headers ?? {});
}

function streamMessage(res: ServerResponse, n: number, model: string, turn: MessagesTurn): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}`, ...headersOf(turn) });
  const send = (event: string, data: Record<string, unknown>): void => void res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  const content = contentOf(turn, n);
  send('message_start', {
    message: {
      id: `msg_fake_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...USAGE, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block['type'] === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block['text'] } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: turn.toolUse?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } });
  send('message_stop', {});
  res.end();
}

export async function startFakeMessagesApi(turns: MessagesTurn[]): Promise<FakeMessagesApi> {
  const requests: RecordedMessagesRequest[] = [];
  let served = 0;
  let side = 0;
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = req.url ?? '/';
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const key = req.headers['x-api-key'];
      requests.push({ path, apiKey: typeof key === 'string' ? key : undefined, body, at: Date.now() });
      if (!path.startsWith('/v1/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (path.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      const model = typeof body['model'] === 'string' ? body['model'] : 'claude-fake';
      const tools = Array.isArray(body['tools']) ? body['tools'] : [];
      let turn: MessagesTurn;
      let n: number;
      if (tools.length === 0) {
        side += 1;
        n = 1000 + side;
        turn = { text: 'Fake title' };
      } else {
        n = served;
        turn = turns[served] ?? { text: 'No more scripted turns.' };
        if (turn.error === undefined) served += 1;
      }
      if (turn.error) {
        const { status, type, message, headers } = turn.error;
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${n}`, ...headers });
        res.end(JSON.stringify({ type: 'error', error: { type, message } }));
        return;
      }
      if (body['stream'] === true) {
        streamMessage(res, n, model, turn);
        return;
      }
      const message = {
        id: `msg_fake_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content: contentOf(turn, n),
        stop_reason: turn.toolUse?.length ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: USAGE,
      };
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${n}`, ...headersOf(turn) }).end(JSON.stringify(message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    served: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
