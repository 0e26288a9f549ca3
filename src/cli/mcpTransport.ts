// The MCP server's stdio transport: one JSON-RPC message a line, as the SDK's, except that a line it
// cannot take is answered, not fatal. The SDK's transport closed (and the server exited 0, silently)
// on a line over 10 MiB, and answered nothing to a line that is not JSON-RPC. Here a line over
// MAX_LINE_BYTES is skipped to its end without being kept, and it and an unreadable line are each
// answered with a JSON-RPC error (no id: none could be read); the server goes on serving.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line taken (the SDK's default buffer). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of an over-long line dropped so far (its end is awaited, then it is answered), or -1. */
  private skipped = -1;
  private closed = false;

  constructor(private readonly input: NodeJS.ReadableStream = process.stdin, private readonly output: NodeJS.WritableStream = process.stdout, private readonly max = MAX_LINE_BYTES) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
      this.take(buf.subarray(0, nl), true);
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 0) this.take(buf, false);
  };

  private readonly onEnd = (): void => void this.close();
  private readonly onError = (e: Error): void => this.onerror?.(e);

  /** A piece of the current line; `ends`: the line ends after it. */
  private take(piece: Buffer, ends: boolean): void {
    if (this.skipped < 0 && this.size + piece.length > this.max) {
      this.skipped = this.size;
      this.parts = [];
      this.size = 0;
    }
    if (this.skipped >= 0) {
      this.skipped += piece.length;
      if (ends) {
        this.fail(ErrorCode.InvalidRequest, `The message was not read: its line is longer than ${this.max} bytes (${this.skipped} bytes). Send smaller messages; this server goes on serving.`);
        this.skipped = -1;
      }
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
    if (!ends) return;
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.fail(ErrorCode.ParseError, 'The line is not JSON: send one JSON-RPC message a line.');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.fail(ErrorCode.InvalidRequest, 'The line is JSON but not a JSON-RPC 2.0 message.');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Answers a line that could not be taken; its id could not be read, so the error has none. */
  private fail(code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', error: { code, message } })}\n`);
    this.onerror?.(new Error(message));
  }

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    this.input.pause();
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }
}
