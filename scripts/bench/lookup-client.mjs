// One bulk lookup in a process of its own, so its memory figures are its own.
// Input (argv[2], JSON): {core, mode: 'ours'|'naive'|'raw', kind: 'storefront'|'consoleLive', n, concurrency?, endpoint, titleId, secretKey,
//   proxy?, ca? (ours only)}
// Output (last stdout line, JSON): {wallMs, total, linked, linkedAtEven, rssGrowthMB, peakRssMB, retainedMB}
import { request } from 'node:http';
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const core = createRequire(import.meta.url)(input.core);
const { PlatformClient, benchStorefrontName, benchConsoleLiveId } = core;
const storefront = input.kind === 'storefront';
const ids = Array.from({ length: input.n }, (_, i) => (storefront ? benchStorefrontName(i) : benchConsoleLiveId(i)));
const operation = storefront ? 'Server/GetPlatformIDsFromStorefrontNames' : 'Server/GetPlatformIDsFromConsoleLiveIDs';
const base = input.endpoint.replace('{titleId}', input.titleId);

/** The naive client: one request of 25 at a time, each on a new connection. */
function naiveRequest(chunk) {
  const body = JSON.stringify(storefront ? { StorefrontNames: chunk } : { ConsoleLiveAccountIDs: chunk, Sandbox: 'RETAIL' });
  const url = new URL(`${base}/${operation}`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'x-secretkey': input.secretKey, 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`naive request: HTTP ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text).data.Data);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function naive() {
  const out = [];
  for (let i = 0; i < ids.length; i += 25) {
    out.push(...await naiveRequest(ids.slice(i, i + 25)));
  }
  return out;
}

/** The floor of this machine: a bare undici pool, same concurrency, no validation, retries or cancellation. */
async function raw() {
  const { Pool } = createRequire(import.meta.url)('undici');
  const url = new URL(`${base}/${operation}`);
  const pool = new Pool(url.origin, { connections: input.concurrency });
  const found = new Map();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const chunk = ids.slice(next, next += 25);
      const body = JSON.stringify(storefront ? { StorefrontNames: chunk } : { ConsoleLiveAccountIDs: chunk, Sandbox: 'RETAIL' });
      const res = await pool.request({ path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'x-secretkey': input.secretKey }, body });
      const data = (await res.body.json()).data.Data;
      chunk.forEach((id, i) => found.set(id, data[i].PlatformId));
    }
  };
  try {
    await Promise.all(Array.from({ length: input.concurrency }, worker));
  } finally {
    await pool.close();
  }
  return ids.map((id) => ({ PlatformId: found.get(id) ?? null }));
}

async function ours() {
  const client = new PlatformClient({
    titleId: input.titleId, endpoint: input.endpoint, getSecretKey: async () => input.secretKey,
    ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
    ...(input.proxy === undefined ? {} : { proxy: input.proxy }),
    ...(input.ca === undefined ? {} : { ca: input.ca }),
  });
  try {
    return storefront
      ? await client.getPlatformIdsFromStorefrontNames(ids)
      : await client.getPlatformIdsFromConsoleLiveIds(ids, 'RETAIL');
  } finally {
    await client.close();
  }
}

globalThis.gc?.();
const startHeap = process.memoryUsage().heapUsed;
const startRss = process.memoryUsage.rss();
// Peak RSS during the call, sampled every 2 ms (the kernel's maxRSS also counts start-up).
let peak = startRss;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 2);
const t0 = performance.now();
const result = await { naive, raw, ours }[input.mode]();
const wallMs = performance.now() - t0;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const linked = result.filter((e) => e.PlatformId !== null).length;
// The bench seed links even identifiers only: each answer must be in its input's place.
const linkedAtEven = result.every((e, i) => (e.PlatformId !== null) === (i % 2 === 0));
// What stays after a full GC while the result is still held, versus the start.
globalThis.gc?.();
const retainedMB = (process.memoryUsage().heapUsed - startHeap) / 2 ** 20;
console.log(JSON.stringify({ wallMs, total: result.length, linked, linkedAtEven, rssGrowthMB: (peak - startRss) / 2 ** 20, peakRssMB: peak / 2 ** 20, retainedMB }));
