// A small Gemini API (generativelanguage v1beta) on 127.0.0.1 for the real Gemini CLI: each call
// of the main model takes the next scripted turn — text, function calls the CLI really executes
// (write_file, run_shell_command), an HTTP error or a stream that stalls. The CLI's utility calls
// (the model router, the next-speaker check) ask for JSON and get one answer that fits them all,
// without using a turn. Nothing here touches the network beyond the loopback interface.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  cachedContentTokenCount?: number;
}

export type GeminiTurn =
  | { text: string; usage?: GeminiUsage }
  | { calls: Array<{ name: string; args: Record<string, unknown> }>; text?: string; usage?: GeminiUsage }
  /** An HTTP error with the API's error document; `body` replaces the default one. */
  | { error: number; message?: string; status?: string; details?: unknown[] }
  /** Headers and one chunk of text, then nothing until the client goes away. */
  | { stall: true };

export interface RecordedRequest {
  url: string;
  model: string;
  apiKey: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeGeminiApi {
  url: string;
  /** Requests of the main model, in order (utility calls left out). */
  requests: RecordedRequest[];
  /** Turns not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/** The API's error answers as Google gives them (the shapes Gemini CLI 0.61 classifies). */
export const GEMINI_ERRORS = {
  badKey: {
    error: 400,
    message: 'API key not valid. Please pass a valid API key.',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
  },
  unauthenticated: { error: 401, message: 'Request had invalid authentication credentials.' },
  dailyQuota: {
    error: 429,
    message:
      'You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 250, model: gemini-2.5-flash\nPlease retry in 13h5m2.5s.',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
            quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '47102s' },
    ],
  },
  /** A daily quota whose reset only the RetryInfo carries (12 h); the message names no delay. */
  dailyQuotaRetryInfoOnly: {
    error: 429,
    message: 'Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 250, model: gemini-2.5-flash',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
            quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '43200s' },
    ],
  },
  /** The model has no capacity left for this account: a limit only time lifts, with no reset given. */
  capacityExhausted: { error: 429, message: 'You have exhausted your capacity on this model. Your quota will reset after some time.' },
  /** A per-minute quota: a short wait lifts it. */
  perMinuteQuota: {
    error: 429,
    message: 'Resource has been exhausted (e.g. check quota).',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }],
      },
    ],
  },
  /** What Google answers a project whose billing is off: no wait helps. */
  billingDisabled: {
    error: 403,
    message:
      'This API method requires billing to be enabled. Please enable billing on project #123456789012 by visiting https://console.developers.google.com/billing/enable?project=123456789012 then retry. If you enabled billing for this project recently, wait a few minutes for the action to propagate to our systems and retry.',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'BILLING_DISABLED', domain: 'googleapis.com' }],
  },
  serverError: { error: 500, message: 'An internal error has occurred.' },
} satisfies Record<string, GeminiTurn>;

export const FAKE_GEMINI_KEY = 'fake-gemini-key-4b1d9a7e';
const DEFAULT_USAGE: GeminiUsage = { promptTokenCount: 1200, candidatesTokenCount: 80 };
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function usageMetadata(usage: GeminiUsage = DEFAULT_USAGE): Record<string, number> {
  const meta: Record<string, number> = {
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: usage.candidatesTokenCount,
    totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount,
  };
  if (usage.cachedContentTokenCount !== undefined) meta['cachedContentTokenCount'] = usage.cachedContentTokenCount;
  return meta;
}

function chunk(parts: unknown[], model: string, usage?: GeminiUsage): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usageMetadata(usage), modelVersion: model };
}

function turnParts(turn: Extract<GeminiTurn, { text: string } | { calls: unknown }>): unknown[] {
  if (!('calls' in turn)) return [{ text: turn.text }];
  return [...(turn.text ? [{ text: turn.text }] : []), ...turn.calls.map((call) => ({ functionCall: call }))];
}

/** The router asks for a complexity score, the next-speaker check for who speaks: one answer fits both. */
const UTILITY_ANSWER = JSON.stringify({ complexity_reasoning: 'scripted', complexity_score: 10, reasoning: 'scripted', next_speaker: 'user' });

function isUtilityCall(body: Record<string, unknown>): boolean {
  const config = body['generationConfig'];
  return typeof config === 'object' && config !== null && ('responseJsonSchema' in config || 'responseSchema' in config || 'responseMimeType' in config);
}

function sendError(res: ServerResponse, turn: Extract<GeminiTurn, { error: number }>): void {
  const status = turn.status ?? STATUS_NAMES[turn.error] ?? 'UNKNOWN';
  const error = { code: turn.error, message: turn.message ?? `scripted ${turn.error}`, status, ...(turn.details ? { details: turn.details } : {}) };
  res.writeHead(turn.error, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error }));
}

/** Starts the fake API; `turns` are used in order, one per call of the main model. */
export async function startFakeGeminiApi(turns: GeminiTurn[]): Promise<FakeGeminiApi> {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const answer = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const url = req.url ?? '';
    const model = /models\/([^:]+):/.exec(url)?.[1] ?? 'unknown';
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const streaming = url.includes(':streamGenerateContent');
    const send = (payload: Record<string, unknown>): void => {
      if (streaming) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      }
    };
    if (url.includes(':countTokens')) return send({ totalTokens: 100 });
    if (isUtilityCall(body)) return send(chunk([{ text: UTILITY_ANSWER }], model, { promptTokenCount: 50, candidatesTokenCount: 10 }));
    const header = req.headers['x-goog-api-key'];
    requests.push({ url, model, apiKey: Array.isArray(header) ? header[0] : header, body });
    const turn = queue.shift();
    if (turn === undefined) return sendError(res, { error: 500, message: 'fake Gemini API: no scripted turn left' });
    if ('error' in turn) return sendError(res, turn);
    if ('stall' in turn) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk([{ text: 'Working on it' }], model))}\r\n\r\n`);
      return;
    }
    send(chunk(turnParts(turn), model, turn.usage));
  };

  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => (text += piece));
    req.on('end', () => answer(req, res, text));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A throwaway HOME where the Gemini CLI uses an API key (no login), sends no usage statistics and
 * gives up after `maxAttempts` tries of a failing call (it retries 429s and 5xx ten times over
 * minutes by default); and the environment that points it at `api`.
 */
export function geminiHome(home: string, api: FakeGeminiApi, options: { maxAttempts?: number } = {}): Record<string, string> {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { maxAttempts: options.maxAttempts ?? 1 },
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  // Gemini CLI writes a report of every API error to the temp folder: keep them in the throwaway HOME.
  mkdirSync(join(home, 'tmp'));
  return { HOME: home, TMPDIR: join(home, 'tmp'), GEMINI_API_KEY: FAKE_GEMINI_KEY, GOOGLE_GEMINI_BASE_URL: api.url };
}
