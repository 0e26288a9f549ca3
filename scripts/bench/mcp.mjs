// The MCP server's cost: tools/call of a 500-name lookup (the SDK's client over stdio to
// `node dist/cli.js mcp`) against the same lookup through PlatformClient directly, in this same
// run, the same emulator and latency, interleaved so drift hits both alike. Target: <= 1.10.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { control, CORE_BUNDLE, median, REPO, startEmulator } from './lib.mjs';

const NAMES = 500;
const LATENCY_MS = 25;

export async function measureMcp({ quick, row }) {
  const { PlatformClient, benchStorefrontName } = createRequire(import.meta.url)(CORE_BUNDLE);
  const names = Array.from({ length: NAMES }, (_, i) => benchStorefrontName(i));
  const emu = await startEmulator();
  const direct = new PlatformClient({ titleId: emu.titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(emu.secretKey) });
  const transport = new StdioClientTransport({
    command: process.execPath, args: [join(REPO, 'dist', 'cli.js'), 'mcp', '--title', emu.titleId, '--endpoint', emu.endpoint],
    env: { PATH: process.env.PATH ?? '', PLATFORM_SECRET_KEY: emu.secretKey }, stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await control(emu.origin, 'faults', { latencyMs: LATENCY_MS });
    await client.connect(transport);
    const viaClient = async () => {
      const t = performance.now();
      const pairs = await direct.getPlatformIdsFromStorefrontNames(names);
      if (pairs.length !== NAMES) throw new Error(`direct lookup returned ${pairs.length} of ${NAMES}`);
      return performance.now() - t;
    };
    const viaMcp = async () => {
      const t = performance.now();
      const r = await client.callTool({ name: 'look_up_platform_ids', arguments: { kind: 'storefrontNames', identifiers: names } });
      const ms = performance.now() - t;
      const results = JSON.parse(r.content[0].text).serviceData?.results;
      if (r.isError || results?.length !== NAMES) throw new Error(`tools/call returned ${r.isError ? 'an error' : `${results?.length} results`}: ${r.content[0].text.slice(0, 200)}`);
      return ms;
    };
    await viaClient();
    await viaMcp();
    const repeats = quick ? 3 : 15;
    const ours = [];
    const base = [];
    for (let i = 0; i < repeats; i++) {
      base.push(await viaClient());
      ours.push(await viaMcp());
    }
    const sec = `MCP server: tools/call of a ${NAMES}-name lookup, ${LATENCY_MS} ms latency`;
    const ratio = median(ours) / median(base);
    row(sec, `tools/call wall time vs the same lookup through the client directly (median of ${repeats})`, median(ours), median(base), ratio, '<= 1.10', ratio <= 1.1, 'ms');
    return { ours, base };
  } finally {
    await client.close().catch(() => undefined);
    await direct.close();
    await emu.stop();
  }
}
