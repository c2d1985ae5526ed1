import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { DashboardState } from './dashboard-view.js';
import { parseControlRequest, type ControlOutcome, type ControlRequest } from './dashboard-controls.js';
import type { OpeningCodes } from './opening-codes.js';
import { allowedHosts, checkRequest, isPublicRequest, SESSION_PATH, type GuardConfig } from './request-guard.js';
import { createStateStream } from './state-stream.js';
import type { StaticAsset } from './static-assets.js';

/** What readJsonBody gives when it has already answered the request with a refusal. */
const NO_BODY = Symbol('no body');

export interface DashboardServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  token: string;
  /** The one-time codes of the addresses handed to the browser opener. */
  openingCodes: OpeningCodes;
  assets: Map<string, StaticAsset>;
  read: () => DashboardState;
  control: (loopId: string, request: ControlRequest) => Promise<ControlOutcome>;
  /** How often open pages are brought up to date (at least every second). */
  intervalMs: number;
  onError: (error: unknown) => void;
}

export interface DashboardServer {
  /** The address to print: the token in its fragment (after `#`), which a browser never sends to any server. */
  url: string;
  /** A new address for the browser opener: a one-time code in place of the token (opening-codes.ts). */
  openingUrl(): string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4096;

/** Every answer: never cached, never framed by another page, scripts and connections to this origin only. */
const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, value: unknown): void => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The JSON body of a POST; a body past MAX_BODY_BYTES is read to its end and dropped (so the answer still reaches the client). */
function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new BodyError(`request body too large (more than ${MAX_BODY_BYTES} bytes)`, 413));
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError('request body is not JSON', 400));
      }
    });
    req.on('error', reject);
  });
}

/**
 * The dashboard's HTTP server: the page and its assets, the state as JSON and
 * as a server-sent event stream, and the buttons as POSTs. Every request passes
 * request-guard.ts first.
 */
export function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const stream = createStateStream(options.read, options.intervalMs, options.onError);
  let guard: GuardConfig | undefined;
  const page = options.assets.get('/index.html');

  /** A request's JSON body, or NO_BODY once a refusal of a body too large or malformed was sent. */
  const readJsonBody = async (req: IncomingMessage, res: ServerResponse): Promise<unknown> => {
    try {
      return await readBody(req);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      sendJson(res, error.status, { ok: false, message: error.message });
      return NO_BODY;
    }
  };

  /** The page opened with a one-time code trades it for the token, once. */
  const redeemCode = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJsonBody(req, res);
    if (body === NO_BODY) return;
    const code = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['code'] : undefined;
    if (typeof code === 'string' && options.openingCodes.redeem(code)) return sendJson(res, 200, { ok: true, token: options.token });
    return sendJson(res, 401, {
      ok: false,
      message: 'This address was for one opening only, and it was used already or has expired.',
      hint: 'Open the address ralph dashboard printed in its terminal.',
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (guard === undefined) return send(res, 503, 'text/plain; charset=utf-8', 'starting\n');
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const method = req.method ?? 'GET';
    const verdict = checkRequest(guard, req.headers, isPublicRequest(method, url.pathname));
    if (!verdict.ok) return send(res, verdict.status, 'text/plain; charset=utf-8', `Refused: ${verdict.reason}. Open the address ralph dashboard printed.\n`);
    if (method === 'POST' && url.pathname === SESSION_PATH) return redeemCode(req, res);
    if (method === 'POST') {
      const match = /^\/api\/loops\/([^/]+)\/([a-z-]+)$/.exec(url.pathname);
      if (!match) return sendJson(res, 404, { ok: false, message: `no such control: ${url.pathname}` });
      const body = await readJsonBody(req, res);
      if (body === NO_BODY) return;
      const request = parseControlRequest(match[2] ?? '', body);
      if (request === undefined)
        return sendJson(res, 400, { ok: false, message: `unknown control '${match[2] ?? ''}' (or a gate answer other than retry, skip, abort)` });
      let loopId: string;
      try {
        loopId = decodeURIComponent(match[1] ?? '');
      } catch {
        return sendJson(res, 404, { ok: false, message: `no such loop: ${match[1] ?? ''}` });
      }
      const outcome = await options.control(loopId, request);
      return sendJson(res, outcome.status, outcome);
    }
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: 'GET, HEAD, POST' });
    if (url.pathname === '/' && page !== undefined) return send(res, 200, page.type, page.body);
    if (url.pathname === '/api/state') return sendJson(res, 200, options.read());
    if (url.pathname === '/api/events' && method === 'GET') return stream.add(res);
    const asset = options.assets.get(url.pathname);
    if (asset !== undefined && url.pathname !== '/index.html') return send(res, 200, asset.type, asset.body);
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError(error);
      if (!res.headersSent) sendJson(res, 500, { ok: false, message: 'internal error; see the terminal running ralph dashboard' });
      else res.end();
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      server.on('error', options.onError);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
      const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
      const origin = `http://${hostPart}:${port}`;
      const hosts = allowedHosts(options.host, port);
      guard = { token: options.token, hosts, origins: hosts === 'any' ? [] : hosts.map((h) => `http://${h}`) };
      resolve({
        url: `${origin}/#token=${options.token}`,
        openingUrl: () => `${origin}/#code=${options.openingCodes.issue()}`,
        origin,
        port,
        close: () =>
          new Promise<void>((done) => {
            stream.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
