// What the Chromium suites over the panel pages share: the built pages, a loopback server and
// a headless Chromium, started before a suite and stopped after it.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { PanelKind } from '../../../src/webview/protocol';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The repository (the bundle lives in out/test/unit/webview/). */
export const ROOT = resolve(__dirname, '..', '..', '..', '..');
export const KINDS: PanelKind[] = ['loginResult', 'handheldStore'];

/** Mocha hooks: `handle` served on 127.0.0.1 and a headless Chromium; the suite is skipped without Chromium. */
export function useChromium(handle: (req: IncomingMessage, res: ServerResponse) => void): { readonly browser: Browser; readonly origin: string } {
  const box = { origin: '' } as { browser: Browser; origin: string };
  let browser: Browser | undefined;
  let server: Server | undefined;
  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`    SKIPPED: ${CHROMIUM} is not installed (apt-get install -y --no-install-recommends chromium fonts-liberation).`);
      this.skip();
    }
    for (const k of KINDS) assert.ok(existsSync(join(ROOT, 'dist', 'webview', `${k}.js`)), `dist/webview/${k}.js missing: run node esbuild.mjs first`);
    server = await new Promise<Server>((ok, fail) => {
      const s = createServer(handle);
      s.once('error', fail);
      s.listen(0, '127.0.0.1', () => ok(s));
    });
    box.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    box.browser = browser;
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });
  return box;
}
