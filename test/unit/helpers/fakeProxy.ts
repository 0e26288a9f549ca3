// A scripted HTTP(S) proxy on 127.0.0.1 that opens no tunnel: it records each request's first line
// and Proxy-Authorization header and answers every one with the status given, for tests of what a
// client sends to its proxy (which credentials, how often) and of how it reads the refusal.
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export interface ProxyRequestSeen {
  /** e.g. `CONNECT 127.0.0.1:9 HTTP/1.1` */
  line: string;
  authorization: string | undefined;
}

export interface FakeProxy {
  /** http(s)://127.0.0.1:PORT */
  url: string;
  port: number;
  seen: ProxyRequestSeen[];
  stop(): Promise<void>;
}

export async function startFakeProxy(o: { status: number; tls?: { cert: string; key: string } }): Promise<FakeProxy> {
  const seen: ProxyRequestSeen[] = [];
  const sockets = new Set<Socket>();
  const serve = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = head.slice(0, end).split('\r\n');
      head = head.slice(end + 4);
      const auth = lines.slice(1).find((l) => /^proxy-authorization:/i.test(l));
      seen.push({ line: lines[0], authorization: auth?.slice(auth.indexOf(':') + 1).trim() });
      socket.end(`HTTP/1.1 ${o.status} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
  };
  let server: Server;
  if (o.tls) {
    server = createTlsServer({ cert: o.tls.cert, key: o.tls.key }, serve);
  } else {
    server = createServer(serve);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    url: `${o.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    seen,
    stop: () => new Promise<void>((resolve) => {
      sockets.forEach((s) => s.destroy());
      server.close(() => resolve());
    }),
  };
}
