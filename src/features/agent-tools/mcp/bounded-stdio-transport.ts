import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcIdScanner, type JsonRpcId } from '../../../core/json-rpc-id-scanner.js';

/**
 * MCP over stdio, one JSON-RPC message per line, with a size limit per
 * message that does not end the server. The SDK's own stdio transport closes
 * the connection when a message outgrows its buffer, leaving the client's
 * call unanswered; here an oversized message is dropped as it streams in
 * (only its id is picked out), answered with a JSON-RPC error naming the
 * limit, and the next message is served as usual.
 */

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

function describeLimit(limit: number): string {
  const mib = limit / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${limit} bytes`;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversized message is being skipped. */
  private skipping: JsonRpcIdScanner | undefined;
  private started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly limit = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(NEWLINE);
      const part = newline === -1 ? rest : rest.subarray(0, newline);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      if (this.skipping) this.skipping.feed(part);
      else this.collect(part);
      if (newline !== -1) this.endOfMessage();
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private collect(part: Buffer): void {
    if (this.size + part.length <= this.limit) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    // Too large to keep: from here on only its id is looked for.
    const scanner = new JsonRpcIdScanner();
    for (const kept of this.chunks) scanner.feed(kept);
    scanner.feed(part);
    this.skipping = scanner;
    this.chunks = [];
    this.size = 0;
  }

  private endOfMessage(): void {
    if (this.skipping) {
      const id = this.skipping.end();
      this.skipping = undefined;
      this.answerTooLarge(id);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  private answerTooLarge(id: JsonRpcId | undefined): void {
    const message = `request too large: one message may be at most ${describeLimit(this.limit)} (${this.limit} bytes); it was discarded unread. Send smaller arguments (for example, fixtures as several calls or files referenced by path).`;
    this.onerror?.(new Error(`discarded a message over ${describeLimit(this.limit)} (id ${JSON.stringify(id ?? null)})`));
    // When no id can be read (a notification, or an id beyond what the scanner keeps) the answer carries id null, as JSON-RPC does for a request it cannot read.
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code: INVALID_REQUEST, message, data: { limit_bytes: this.limit } } })}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onStreamError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
