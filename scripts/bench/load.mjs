// Load generator: a keep-alive undici pool sending lookup requests as fast as the server answers,
// bounded by a request count and a time limit. Input (argv[2], JSON):
// {url, headers, bodies: string[], connections, warmupRequests, maxRequests, maxMs}
// Output (last stdout line, JSON): {requests, seconds, requestsPerSecond, p50Ms, p99Ms, errors}
import { Pool } from 'undici';

const input = JSON.parse(process.argv[2]);
const url = new URL(input.url);
const pool = new Pool(url.origin, { connections: input.connections, pipelining: 1, keepAliveTimeout: 30_000 });

async function one(i) {
  const t = performance.now();
  const res = await pool.request({ path: url.pathname, method: 'POST', headers: input.headers, body: input.bodies[i % input.bodies.length] });
  await res.body.text();
  return { ms: performance.now() - t, ok: res.statusCode === 200 };
}

/** `connections` loops, each sending its next request when the last one is answered. */
async function phase(maxRequests, maxMs) {
  const latencies = new Float64Array(maxRequests);
  let sent = 0;
  let done = 0;
  let errors = 0;
  const deadline = performance.now() + maxMs;
  const loop = async () => {
    while (sent < maxRequests && performance.now() < deadline) {
      const i = sent++;
      const r = await one(i);
      latencies[done++] = r.ms;
      if (!r.ok) errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: input.connections }, loop));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = Array.from(latencies.subarray(0, done)).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(done - 1, Math.ceil(p * done) - 1)];
  return { requests: done, seconds, requestsPerSecond: done / seconds, p50Ms: pct(0.5), p99Ms: pct(0.99), errors };
}

await phase(input.warmupRequests, 5_000);
const result = await phase(input.maxRequests, input.maxMs);
await pool.close();
console.log(JSON.stringify(result));
