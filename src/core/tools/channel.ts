// The line between the extension and the MCP server it registered: the server reports every tool
// call (for Activity) and asks for the deletion jobs the editor keeps. A local socket in a folder
// only the user can open (a named pipe on Windows), and a token from the child's environment
// before anything else is read; one JSON object per line, each line bounded.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerEntry } from '../deletion/types';

/** Environment variables naming the channel for the server. */
export const CHANNEL_ENV = 'PLATFORM_EXPLORER_CHANNEL';
export const CHANNEL_TOKEN_ENV = 'PLATFORM_EXPLORER_CHANNEL_TOKEN';

/** One tool call as Activity records it: names, codes and times only, never service text. */
export interface ToolCallRecord {
  tool: string;
  titleId?: string;
  operations: string[];
  outcome: 'succeeded' | 'failed' | 'cancelled';
  errorCode?: number;
  /** ISO time the first request started (else the call). */
  time: string;
  durationMs: number;
}

const MAX_LINE_TO_EXTENSION = 64 * 1024;
const MAX_LINE_TO_SERVER = 32 * 1024 * 1024;

function lines(socket: Socket, max: number, onLine: (v: unknown) => void): void {
  let buf = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        onLine(JSON.parse(line));
      } catch {
        socket.destroy();
        return;
      }
    }
    if (buf.length > max) socket.destroy();
  });
  socket.on('error', () => socket.destroy());
}

export interface ChannelHost {
  /** Goes into the server's environment (CHANNEL_ENV, CHANNEL_TOKEN_ENV). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The extension's end: `onCall` gets each call record, `jobs` answers the server's question. */
export async function hostChannel(o: { onCall: (r: ToolCallRecord) => void; jobs: (titleId?: string) => readonly LedgerEntry[] }): Promise<ChannelHost> {
  const token = randomBytes(24).toString('hex');
  const dir = process.platform === 'win32' ? undefined : mkdtempSync(join(tmpdir(), 'platform-explorer-mcp-'));
  const path = dir ? join(dir, 's') : `\\\\.\\pipe\\platform-explorer-${randomBytes(12).toString('hex')}`;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let trusted = false;
    lines(socket, MAX_LINE_TO_EXTENSION, (v) => {
      const m = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
      if (!trusted) {
        const given = Buffer.from(String(m.token ?? ''));
        trusted = m.type === 'hello' && given.length === token.length && timingSafeEqual(given, Buffer.from(token));
        if (!trusted) socket.destroy();
      } else if (m.type === 'call') {
        o.onCall(m.record as ToolCallRecord);
      } else if (m.type === 'jobs') {
        const titleId = typeof m.titleId === 'string' ? m.titleId : undefined;
        socket.write(`${JSON.stringify({ type: 'jobs', id: m.id, jobs: o.jobs(titleId) })}\n`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    env: { [CHANNEL_ENV]: path, [CHANNEL_TOKEN_ENV]: token },
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ChannelClient {
  record(r: ToolCallRecord): void;
  jobs(titleId?: string): Promise<LedgerEntry[]>;
  close(): void;
}

/** The server's end, when its environment names a channel; undefined otherwise (standalone). */
export async function joinChannel(env: NodeJS.ProcessEnv): Promise<ChannelClient | undefined> {
  const path = env[CHANNEL_ENV];
  const token = env[CHANNEL_TOKEN_ENV];
  if (!path || !token) return undefined;
  const socket = createConnection(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.unref();
  let next = 0;
  const waiting = new Map<number, (jobs: LedgerEntry[] | undefined) => void>();
  socket.on('close', () => waiting.forEach((w) => w(undefined)));
  lines(socket, MAX_LINE_TO_SERVER, (v) => {
    const m = v as { id?: number; jobs?: LedgerEntry[] };
    const w = waiting.get(Number(m.id));
    waiting.delete(Number(m.id));
    w?.(Array.isArray(m.jobs) ? m.jobs : undefined);
  });
  const send = (m: object): void => void socket.write(`${JSON.stringify(m)}\n`);
  send({ type: 'hello', token });
  return {
    record: (record) => send({ type: 'call', record }),
    jobs: (titleId) => new Promise((resolve, reject) => {
      const settle = (jobs: LedgerEntry[] | undefined): void => (jobs ? resolve(jobs) : reject(new Error('VS Code did not answer with the deletion jobs (the editor closed this server\'s channel).')));
      if (socket.destroyed) return settle(undefined);
      const id = ++next;
      waiting.set(id, settle);
      send({ type: 'jobs', id, titleId });
    }),
    close: () => socket.end(),
  };
}
