// A small OpenAI Responses API on 127.0.0.1 for driving real agent CLIs offline. Each POST to
// …/responses takes the next scripted reply: a streamed answer (text, a function call the CLI then
// really runs), an HTTP error, a stream that fails, or one that never ends. Other paths answer 404.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ResponsesUsage {
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
}

/**
 * Response headers of a streamed answer, e.g. the subscription windows' `x-codex-primary-*` /
 * `x-codex-secondary-*` headers the Codex CLI reads. A function is asked when the answer is sent
 * (a reset time relative to the answer).
 */
export interface StreamHeaders {
  headers?: Record<string, string> | (() => Record<string, string>);
}

/** One scripted answer to one request. */
export type ResponsesReply =
  /** An assistant message, streamed as deltas and then whole. */
  | ({ text: string; usage?: Partial<ResponsesUsage> } & StreamHeaders)
  /** A function call (the CLI runs the tool and asks again with its output). */
  | ({ call: string; arguments: Record<string, unknown>; text?: string; usage?: Partial<ResponsesUsage> } & StreamHeaders)
  /** A call of a freeform tool (Codex's `apply_patch` takes the patch as plain text). */
  | ({ custom: string; input: string; usage?: Partial<ResponsesUsage> } & StreamHeaders)
  /** An HTTP error with a JSON body, e.g. 401, 429 with retry-after, 500. */
  | { status: number; error: { type?: string; code?: string; message: string; [key: string]: unknown }; headers?: Record<string, string> }
  /** A stream that starts and then reports `response.failed`. */
  | { failed: { code: string; message: string } }
  /** A stream that starts and never ends (a stalled API). */
  | { hang: true };

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: ResponsesRequestBody;
  /** When the request came (epoch ms). */
  at: number;
}

/** The parts of a Responses API request the tests look at. */
export interface ResponsesRequestBody {
  model?: string;
  input?: Array<{ type?: string; role?: string; content?: Array<{ type?: string; text?: string }>; call_id?: string; output?: unknown }>;
  tools?: Array<{ name?: string; type?: string }>;
  reasoning?: { effort?: string };
  [key: string]: unknown;
}

export interface FakeResponsesApi {
  /** The base URL a client appends `/responses` to (…/v1). */
  readonly baseUrl: string;
  readonly requests: ReceivedRequest[];
  /** Requests refused for a wrong key (never scripted, never in `requests`). */
  unauthorized(): number;
  /** Replaces the queue of replies; requests past its end get `fallback`. */
  script(replies: readonly ResponsesReply[], fallback?: ResponsesReply): void;
  /** Replies not taken yet. */
  pending(): number;
  close(): Promise<void>;
}

const DEFAULT_USAGE: ResponsesUsage = { input_tokens: 1200, cached_tokens: 200, output_tokens: 80, reasoning_tokens: 16 };

/** The Bearer key the fake accepts; any other is answered 401 the way the real API answers it. */
export const FAKE_API_KEY = 'sk-fake-test-key-0000';

export async function startFakeResponsesApi(): Promise<FakeResponsesApi> {
  let queue: ResponsesReply[] = [];
  let fallback: ResponsesReply = { text: 'No reply was scripted for this request.' };
  const requests: ReceivedRequest[] = [];
  const open = new Set<ServerResponse>();
  let counter = 0;
  let refused = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method !== 'POST' || !path.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      if (req.headers.authorization !== `Bearer ${FAKE_API_KEY}`) {
        refused += 1;
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: invalidKey(req.headers.authorization) }));
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ path, headers: req.headers, body: raw ? (JSON.parse(raw) as ResponsesRequestBody) : {}, at: Date.now() });
      counter += 1;
      const reply = queue.shift() ?? fallback;
      open.add(res);
      res.on('close', () => open.delete(res));
      answer(res, reply, counter);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(replies, next) {
      queue = [...replies];
      if (next) fallback = next;
    },
    pending: () => queue.length,
    unauthorized: () => refused,
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, reply: ResponsesReply, n: number): void {
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify({ error: reply.error }));
    return;
  }
  const extra = 'headers' in reply && reply.headers !== undefined ? (typeof reply.headers === 'function' ? reply.headers() : reply.headers) : {};
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extra });
  const id = `resp_fake_${n}`;
  const send = (event: Record<string, unknown>): void => {
    res.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  send({ type: 'response.created', response: { id } });
  if ('hang' in reply) return;
  if ('failed' in reply) {
    send({ type: 'response.failed', response: { id, error: reply.failed } });
    res.end();
    return;
  }
  let index = 0;
  const text = 'text' in reply ? reply.text : undefined;
  if (text !== undefined) {
    const item = { type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text, annotations: [] }] };
    send({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
    send({ type: 'response.output_text.delta', output_index: index, content_index: 0, item_id: item.id, delta: text });
    send({ type: 'response.output_item.done', output_index: index, item });
    index += 1;
  }
  if ('call' in reply) {
    const item = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: reply.call, arguments: JSON.stringify(reply.arguments) };
    send({ type: 'response.output_item.added', output_index: index, item: { ...item, arguments: '' } });
    send({ type: 'response.output_item.done', output_index: index, item });
  }
  if ('custom' in reply) {
    const item = { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_${n}`, name: reply.custom, input: reply.input };
    send({ type: 'response.output_item.added', output_index: index, item: { ...item, input: '' } });
    send({ type: 'response.output_item.done', output_index: index, item });
  }
  const u = { ...DEFAULT_USAGE, ...reply.usage };
  send({
    type: 'response.completed',
    response: {
      id,
      usage: {
        input_tokens: u.input_tokens,
        input_tokens_details: { cached_tokens: u.cached_tokens },
        output_tokens: u.output_tokens,
        output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
        total_tokens: u.input_tokens + u.output_tokens,
      },
    },
  });
  res.end();
}

/** The real API's answer to a wrong key: it names the key, masked. */
function invalidKey(authorization: string | undefined): Record<string, unknown> {
  const key = (authorization ?? '').replace(/^Bearer\s+/i, '');
  const masked = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : '***';
  return {
    message: `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  };
}

/** A reply that makes a Codex-style agent create a file with its `apply_patch` tool (offered to the models Codex knows). */
export function addFilePatch(path: string, lines: readonly string[]): ResponsesReply {
  return { custom: 'apply_patch', input: `*** Begin Patch\n*** Add File: ${path}\n${lines.map((l) => `+${l}\n`).join('')}*** End Patch\n` };
}

/** A reply that makes a Codex-style agent run one shell command (its `exec_command` tool). */
export function shellCall(cmd: string, text?: string): ResponsesReply {
  return text === undefined ? { call: 'exec_command', arguments: { cmd, login: false } } : { call: 'exec_command', arguments: { cmd, login: false }, text };
}
