import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible Chat Completions API on 127.0.0.1, what OpenCode's bundled
 * `@ai-sdk/openai-compatible` provider talks to. Each model call takes the next scripted turn:
 * a text answer, a tool call (which OpenCode really runs: write a file, run a command), an
 * HTTP error, or a reply that never comes. The title OpenCode may ask the model for is answered
 * aside and uses no turn. Every request is recorded for assertions.
 */
export type ChatTurn =
  | { text: string }
  | { tool: string; args: Record<string, unknown> }
  | { status: number; error: { message: string; type?: string; code?: string; [key: string]: unknown }; headers?: Record<string, string> }
  | { hang: true };

export interface RecordedRequest {
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** The text of the last user message. */
  userText: string;
}

export interface FakeChatApi {
  /** The base URL OpenCode's provider options take (…/v1). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Turns served so far (title requests aside). */
  served(): number;
  close(): Promise<void>;
}

/** Token counts every answer reports: 100 prompt tokens of which 10 cached, 20 completion. */
export const FAKE_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 10 } };

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Array<Record<string, unknown>>) : [];
  const user = messages.filter((m) => m['role'] === 'user').at(-1);
  const content = user?.['content'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c.text ?? '').join('');
  return '';
}

function isTitleRequest(body: Record<string, unknown>): boolean {
  return JSON.stringify(body['messages'] ?? '').includes('You are a title generator');
}

function stream(res: ServerResponse, n: number, turn: { text: string } | { tool: string; args: Record<string, unknown> }): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1_795_000_000, model: 'fake-model' };
  const send = (chunk: Record<string, unknown>): void => void res.write(`data: ${JSON.stringify({ ...base, ...chunk })}\n\n`);
  if ('tool' in turn) {
    const call = { index: 0, id: `call_${n}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.args) } };
    send({ choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null }] });
    send({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  } else {
    send({ choices: [{ index: 0, delta: { role: 'assistant', content: turn.text }, finish_reason: null }] });
    send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  }
  send({ choices: [], usage: FAKE_USAGE });
  res.end('data: [DONE]\n\n');
}

export async function startFakeChatApi(turns: ChatTurn[], fallback: ChatTurn = { text: 'Nothing left to do.' }): Promise<FakeChatApi> {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let next = 0;
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // Recorded as empty: the assertion on it says what was expected.
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (isTitleRequest(body)) return stream(res, 0, { text: 'Ralph loop' });
    requests.push({ url: req.url, authorization: req.headers.authorization, body, userText: lastUserText(body) });
    const turn = turns[next] ?? fallback;
    next += 1;
    if ('hang' in turn) {
      hanging.add(res);
      return;
    }
    if ('status' in turn) {
      res.writeHead(turn.status, { 'content-type': 'application/json', ...(turn.headers ?? {}) }).end(JSON.stringify({ error: turn.error }));
      return;
    }
    stream(res, next, turn);
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    served: () => next,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
