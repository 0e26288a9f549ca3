// Baseline for the emulator's throughput: node:http on 127.0.0.1 doing only what any JSON API
// must (read the body, parse it, answer JSON of the same shape), with no service logic.
// First stdout line: {"origin": "http://127.0.0.1:PORT"}. Stops on SIGTERM/SIGINT.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const names = Array.isArray(body.StorefrontNames) ? body.StorefrontNames : [];
    const text = JSON.stringify({ code: 200, status: 'OK', data: { Data: names.map((n) => ({ StorefrontName: n, PlatformId: null })) } });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${server.address().port}` })}\n`);
});
const sockets = new Set();
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
const stop = () => {
  server.close(() => process.exit(0));
  for (const s of sockets) s.destroy();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
