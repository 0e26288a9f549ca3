#!/usr/bin/env node
// Renders media/icon.png (the 128x128 extension icon; VSIX icons must be PNG) from the
// activity-bar glyph media/platform.svg on a coloured tile, with the test host's Chromium.
// Run after changing the glyph: node scripts/package/icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT } from '../test-host/server.mjs';

const glyph = readFileSync(join(REPO_ROOT, 'media', 'platform.svg'), 'utf8')
  .replace('width="24" height="24"', 'width="84" height="84"')
  .replace('stroke-width="1.5"', 'stroke-width="1.6"');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="tile" style="width:128px;height:128px;border-radius:24px;display:flex;align-items:center;justify-content:center;
  background:linear-gradient(135deg,#2563eb,#0f766e);color:#fff">${glyph}</div></body></html>`;

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(html);
  await page.locator('#tile').screenshot({ path: join(REPO_ROOT, 'media', 'icon.png'), omitBackground: true });
  console.log('wrote media/icon.png');
} finally {
  await browser.close();
}
