// The command line as users install it: `npm run package:cli` packs it, the package installs into
// an empty folder (nothing fetched: it has no dependencies), and `npx platform-explorer` runs there:
// --help lists mcp and delete-players, and `npx platform-explorer mcp` answers an MCP client.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';

const RACER = DEMO_TITLES[0];
/** The release: the extension's version, which the packed command line and its MCP server report. */
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

describe('cli package: npm pack, install into an empty folder, npx platform-explorer', function () {
  this.timeout(120_000);
  let dir: string;
  let emu: EmulatorHandle;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-cli-pack-'));
    const tgz = execFileSync(process.execPath, [resolve('scripts/package/cli.mjs'), '--out', join(dir, 'pack')], { encoding: 'utf8' }).trim().split('\n').pop()!;
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "name": "empty", "version": "1.0.0", "private": true }\n');
    execFileSync('npm', ['install', '--offline', tgz], { cwd: app, env: npmEnv, stdio: 'pipe' });
    emu = await checkedEmulator({ seed: 'demo', fixedKeys: true });
  });
  after(async () => {
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs as one file with no dependencies; --help lists mcp and delete-players; --version is the release', () => {
    const app = join(dir, 'app');
    assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')), ['platform-explorer']);
    const help = execFileSync('npx', ['--offline', 'platform-explorer', '--help'], { cwd: app, env: npmEnv, encoding: 'utf8' });
    assert.match(help, /platform-explorer delete-players --title ID/);
    assert.match(help, /platform-explorer mcp \[--title ID\] \[--endpoint TEMPLATE\]/);
    assert.equal(execFileSync('npx', ['--offline', 'platform-explorer', '--version'], { cwd: app, env: npmEnv, encoding: 'utf8' }), `${VERSION}\n`);
    assert.equal((JSON.parse(readFileSync(join(app, 'node_modules', 'platform-explorer', 'package.json'), 'utf8')) as { version: string }).version, VERSION);
  });

  it('npx platform-explorer mcp serves an MCP client', async () => {
    const transport = new StdioClientTransport({
      command: 'npx', args: ['--offline', 'platform-explorer', 'mcp', '--title', RACER.titleId, '--endpoint', emu.endpoint],
      cwd: join(dir, 'app'), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, PLATFORM_SECRET_KEY: RACER.secretKey }, stderr: 'pipe',
    });
    const client = new Client({ name: 'packed-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'platform-explorer', version: VERSION });
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'look_up_platform_ids'));
      const r = await client.callTool({ name: 'get_handheld_store_summary', arguments: {} });
      assert.notEqual(r.isError, true);
      assert.match((r.content as { text: string }[])[0].text, /"Created":true/);
    } finally {
      await client.close();
    }
  });
});
