// The built panel pages (dist/webview/*.js) in real headless Chromium, outside VS Code:
// served over loopback with the very HTML the host makes (real CSP) and, to test the
// renderer on its own, without any CSP. A fake acquireVsCodeApi records what the page posts.
// Every service string carries an XSS payload: nothing may run, load, navigate or restyle,
// and each payload must appear on screen as literal text. Page-side callbacks are functions,
// not strings: the CSP forbids the eval that string predicates would need.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LoginResult } from '../../../src/core/api/types';
import { handheldStoreMessage } from '../../../src/extension/views/handheldStoreView';
import { newNonce, panelHtml } from '../../../src/extension/views/html';
import { loginResultMessage } from '../../../src/extension/views/loginResultView';
import type { HostToPage, PageState, PageToHost, PanelKind } from '../../../src/webview/protocol';
import { KINDS, ROOT, useChromium } from './browser';
import { handheldStoreConfig, largeLoginResult, loginResult, rotating, SECRETS } from './fixtures';
import { XSS_PAYLOADS } from './payloads';

type Mode = 'csp' | 'plain';

/** Browser side of the harness, installed before any page script runs. */
const HARNESS = `(() => {
  const w = window;
  w.__hits = []; w.__posted = []; w.__violations = [];
  w.__state = __INITIAL_STATE__;
  w.__pwned = (x) => { w.__hits.push(String(x)); };
  w.acquireVsCodeApi = () => ({
    postMessage: (m) => { w.__posted.push(JSON.parse(JSON.stringify(m))); },
    getState: () => w.__state,
    setState: (s) => { w.__state = JSON.parse(JSON.stringify(s)); },
  });
  document.addEventListener('securitypolicyviolation', (e) => {
    w.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample);
  });
  const TAGS = new Set(['HEADER','DIV','H1','H2','H3','H4','P','SPAN','BUTTON','DETAILS','SUMMARY','DL','DT','DD','CODE',
    'TABLE','CAPTION','THEAD','TBODY','TR','TH','TD']);
  const ATTRS = new Set(['class','open','type','disabled','scope','role','aria-label','aria-hidden','aria-disabled','title']);
  w.__t = {
    dispatch: (m) => window.dispatchEvent(new MessageEvent('message', { data: m })),
    audit: () => {
      const app = document.getElementById('app');
      const bad = [];
      for (const el of app.querySelectorAll('*')) {
        if (!TAGS.has(el.tagName)) bad.push('element ' + el.tagName);
        for (const a of el.attributes) if (!ATTRS.has(a.name)) bad.push('attribute ' + a.name + ' on ' + el.tagName);
      }
      return {
        bad,
        text: app.innerText,
        html: document.documentElement.outerHTML,
        scripts: document.scripts.length,
        styleSheets: document.styleSheets.length,
        frames: window.frames.length,
        closedSections: app.querySelectorAll('details:not([open])').length,
        state: JSON.stringify(w.__state),
        hits: w.__hits.slice(),
        violations: w.__violations.slice(),
        posted: w.__posted.slice(),
      };
    },
  };
})();`;

interface Audit {
  bad: string[];
  text: string;
  html: string;
  scripts: number;
  styleSheets: number;
  frames: number;
  closedSections: number;
  state: string;
  hits: string[];
  violations: string[];
  posted: PageToHost[];
}

interface HarnessWindow {
  __t: { dispatch(m: HostToPage): void; audit(): Audit };
}

/** The page HTML (with or without CSP), the bundles and the css. */
function serve(req: IncomingMessage, res: ServerResponse): void {
  const files: Record<string, { path: string; type: string }> = {
    '/media/panel.css': { path: join(ROOT, 'media', 'panel.css'), type: 'text/css' },
  };
  for (const k of KINDS) files[`/dist/webview/${k}.js`] = { path: join(ROOT, 'dist', 'webview', `${k}.js`), type: 'text/javascript' };
  const origin = `http://${req.headers.host ?? ''}`;
  const url = new URL(req.url ?? '/', origin);
  const [, mode, kind] = url.pathname.split('/');
  let body: string | Buffer | undefined;
  let type = 'text/html; charset=utf-8';
  if (mode === 'csp' && KINDS.includes(kind as PanelKind)) {
    body = panelHtml({
      cspSource: origin, nonce: newNonce(), title: 'Panel',
      scriptUri: `${origin}/dist/webview/${kind}.js`, styleUri: `${origin}/media/panel.css`,
    });
  } else if (mode === 'plain' && KINDS.includes(kind as PanelKind)) {
    body = `<!DOCTYPE html><html><head><link rel="stylesheet" href="/media/panel.css"></head>`
      + `<body><main id="app"></main><script src="/dist/webview/${kind}.js"></script></body></html>`;
  } else if (files[url.pathname]) {
    body = readFileSync(files[url.pathname].path);
    type = files[url.pathname].type;
  }
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body ?? 'not found');
}

describe('webview pages in Chromium', function () {
  this.timeout(60_000);
  const chrome = useChromium(serve);

  /** Everything a page did that a panel page must never do, seen from outside the page. */
  interface Outside { strayRequests: string[]; dialogs: string[]; navigations: string[]; popups: number }

  async function openPage(mode: Mode, kind: PanelKind, initialState?: PageState): Promise<{ page: Page; outside: Outside }> {
    const page = await chrome.browser.newPage();
    const outside: Outside = { strayRequests: [], dialogs: [], navigations: [], popups: 0 };
    const origin = chrome.origin;
    const start = `${origin}/${mode}/${kind}`;
    const allowed = new Set([start, `${origin}/dist/webview/${kind}.js`, `${origin}/media/panel.css`]);
    page.on('request', (r) => { if (!allowed.has(r.url())) outside.strayRequests.push(r.url()); });
    page.on('dialog', (d) => { outside.dialogs.push(d.message()); void d.dismiss(); });
    page.on('popup', () => { outside.popups++; });
    page.on('framenavigated', (f) => { if (f.url() !== start) outside.navigations.push(f.url()); });
    await page.addInitScript(HARNESS.replace('__INITIAL_STATE__', JSON.stringify(initialState ?? null)));
    await page.goto(start);
    await page.waitForFunction(() => (globalThis as unknown as HarnessWindow).__t.audit().posted.length > 0, undefined, { timeout: 10_000 });
    return { page, outside };
  }

  // These run in the page: they may only use what the harness put there.
  const audit = (page: Page) => page.evaluate(() => (globalThis as unknown as HarnessWindow).__t.audit());
  const dispatch = (page: Page, msg: HostToPage) => page.evaluate((m) => (globalThis as unknown as HarnessWindow).__t.dispatch(m), msg);

  function hostileMessage(kind: PanelKind, round: number, used: string[]): HostToPage {
    const s = rotating(XSS_PAYLOADS, round, used);
    const titleName = s();
    if (kind === 'loginResult') return loginResultMessage({ titleId: 'F71AC', titleName, result: loginResult(s) });
    return handheldStoreMessage({ titleId: 'F71AC', titleName, config: handheldStoreConfig(s) });
  }

  it('has at least 30 distinct payloads', () => {
    assert.ok(new Set(XSS_PAYLOADS).size >= 30);
  });

  for (const mode of ['csp', 'plain'] as const) {
    for (const kind of KINDS) {
      it(`${kind} (${mode === 'csp' ? 'real CSP' : 'no CSP'}): every payload in every string field runs nothing and shows literally`, async () => {
        const { page, outside } = await openPage(mode, kind);
        try {
          let slots = 0;
          // Round r shifts every payload one field on, so each payload visits each field.
          for (let round = 0; round < XSS_PAYLOADS.length; round++) {
            const used: string[] = [];
            await dispatch(page, hostileMessage(kind, round, used));
            const a = await audit(page);
            slots = used.length;
            assert.deepEqual(a.bad, [], `round ${round}: only plain text elements`);
            for (const p of used) assert.ok(a.text.includes(p), `round ${round}: payload shown literally: ${p}`);
            assert.equal(a.scripts, 1, 'only the page bundle is a script');
            assert.equal(a.styleSheets, 1, 'only panel.css styles the page');
            assert.equal(a.frames, 0, 'no frames');
            for (const secret of Object.values(SECRETS)) {
              assert.ok(!a.html.includes(secret) && !a.state.includes(secret), 'no secret in the page or its saved state');
            }
          }
          assert.ok(slots >= 15, `${slots} string fields carried payloads`);

          // Press every button, then close every section (inner first): still nothing runs.
          const buttons = page.locator('#app button');
          for (let i = 0, n = await buttons.count(); i < n; i++) await buttons.nth(i).click();
          const summaries = page.locator('#app summary');
          for (let i = await summaries.count() - 1; i >= 0; i--) await summaries.nth(i).click();
          assert.equal((await audit(page)).closedSections, await summaries.count(), 'every section closed');
          const after = await audit(page);
          assert.deepEqual(after.hits, [], 'no payload ran');
          assert.deepEqual(after.violations, [], 'the page never even tried anything the CSP forbids');
          assert.deepEqual(outside, { strayRequests: [], dialogs: [], navigations: [], popups: 0 });
          const types = new Set(after.posted.map((m) => m.type));
          for (const t of types) assert.ok(['ready', 'copy', 'openJson', 'refresh'].includes(t), `page posted only protocol messages (${t})`);

          // Control: markup injected on purpose is caught, so a real escape would be too.
          await page.evaluate(`document.body.insertAdjacentHTML('beforeend', '<img src="data:," onerror="__pwned(\\'control\\')">')`);
          if (mode === 'plain') {
            await page.waitForFunction(() => (globalThis as unknown as HarnessWindow).__t.audit().hits.length > 0, undefined, { timeout: 10_000 });
            assert.deepEqual((await audit(page)).hits, ['control']);
          } else {
            await page.waitForFunction(() => (globalThis as unknown as HarnessWindow).__t.audit().violations.length > 0, undefined, { timeout: 10_000 });
            const end = await audit(page);
            assert.deepEqual(end.hits, [], 'the CSP blocked the control');
            assert.ok(end.violations.some((v) => /^(img-src|script-src)/.test(v)), end.violations.join('; '));
          }
        } finally {
          await page.close();
        }
      });
    }
  }

  it('an 8 MB login result renders within the panel budget, with the "Clipped" note on screen and no secret', async () => {
    const { page } = await openPage('csp', 'loginResult');
    try {
      let n = 0;
      await dispatch(page, loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result: largeLoginResult(8_000_000, () => `v${n++}`) }));
      const a = await audit(page);
      const rows = await page.locator('#app tr, #app dt').count();
      assert.ok(rows <= 2_100, `${rows} rows rendered`);
      assert.match(a.text, /Clipped: this result is larger than a panel shows; [\d,]+ rows are not shown/);
      assert.match(a.text, /Clipped: [\d,]+ more rows are not shown/);
      for (const secret of Object.values(SECRETS)) assert.ok(!a.html.includes(secret), 'a secret in the page');
    } finally {
      await page.close();
    }
  });

  it('login result: ready handshake, masked secrets with Copy and Open as JSON asking the host', async () => {
    const { page } = await openPage('csp', 'loginResult');
    try {
      let a = await audit(page);
      assert.deepEqual(a.posted, [{ type: 'ready' }]);
      assert.ok(a.text.includes('Loading'));
      let n = 0;
      await dispatch(page, loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result: loginResult(() => `value-${n++}`) }));
      a = await audit(page);
      assert.ok(a.text.includes('Demo Racer (F71AC)'));
      assert.ok(a.text.includes('••••••••'), 'masked secrets shown');
      // A script's click (no user gesture) copies nothing.
      await page.evaluate("for (const b of document.querySelectorAll('button.copy')) { b.click(); b.dispatchEvent(new MouseEvent('click', { bubbles: true })); }");
      assert.deepEqual((await audit(page)).posted, [{ type: 'ready' }], 'a synthetic click asked the host to copy');
      await page.getByRole('button', { name: 'Copy EntityToken' }).click();
      await page.getByRole('button', { name: 'Copy SessionTicket' }).click();
      await page.getByRole('button', { name: 'Open as JSON' }).click();
      assert.deepEqual((await audit(page)).posted, [
        { type: 'ready' }, { type: 'copy', field: 'EntityToken' }, { type: 'copy', field: 'SessionTicket' }, { type: 'openJson' },
      ]);
      await dispatch(page, loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result: {} as LoginResult }));
      a = await audit(page);
      assert.ok(a.text.includes('EntityToken: not returned'));
      assert.ok(a.text.includes('not returned'));
      assert.equal(await page.getByRole('button', { name: /^Copy/ }).count(), 0, 'nothing to copy when nothing came');
    } finally {
      await page.close();
    }
  });

  it('handheld store: error in the panel, Try again, refresh busy until the answer, no ClientSecret', async () => {
    const { page } = await openPage('csp', 'handheldStore');
    try {
      await dispatch(page, { type: 'error', message: 'The title F71AC has no secret key.\nSet one with "Set Secret Key".' });
      let a = await audit(page);
      assert.ok(a.text.includes('The title F71AC has no secret key.'));
      assert.ok(a.text.includes('Set one with "Set Secret Key".'));
      await page.getByRole('button', { name: 'Try again' }).click();
      assert.ok(await page.getByRole('button', { name: 'Refreshing…' }).isDisabled());
      assert.deepEqual((await audit(page)).posted, [{ type: 'ready' }, { type: 'refresh' }]);

      let n = 0;
      await dispatch(page, handheldStoreMessage({ titleId: 'F71AC', titleName: 'Demo Racer', config: handheldStoreConfig(() => `value-${n++}`) }));
      a = await audit(page);
      assert.ok(!a.text.includes('no secret key'), 'a good answer clears the error');
      assert.ok(!/ClientSecret/i.test(a.html), 'no ClientSecret column or value');
      assert.ok(a.text.includes('SecondarySubscriptionEnvironments'));
      assert.equal(await page.locator('#app table').count(), 3);
      const refresh = page.getByRole('button', { name: 'Refresh' });
      await refresh.click();
      assert.ok(await page.getByRole('button', { name: 'Refreshing…' }).isDisabled());
      // A failed refresh keeps the last configuration under the error.
      await dispatch(page, { type: 'error', message: 'Request timed out.' });
      a = await audit(page);
      assert.ok(a.text.includes('Request timed out.') && a.text.includes('value-0'));
      assert.ok(await refresh.isEnabled());
    } finally {
      await page.close();
    }
  });

  it('restores from saved state when the page is re-created (hidden, then shown)', async () => {
    const first = await openPage('csp', 'loginResult');
    let saved: PageState;
    let n = 0;
    const result = loginResult(() => `value-${n++}`);
    try {
      await dispatch(first.page, loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result }));
      await first.page.locator('#app summary', { hasText: 'InfoResultPayload' }).click();
      // The toggle event, which saves the state, comes a task after the click.
      await first.page.waitForFunction(
        () => (JSON.parse((globalThis as unknown as HarnessWindow).__t.audit().state) as PageState).open?.info === false,
        undefined, { timeout: 10_000 });
      const a = await audit(first.page);
      assert.equal(a.closedSections, 1);
      saved = JSON.parse(a.state) as PageState;
    } finally {
      await first.page.close();
    }
    const second = await openPage('csp', 'loginResult', saved);
    try {
      const a = await audit(second.page);
      assert.ok(a.text.includes('Demo Racer (F71AC)') && a.text.includes(result.PlatformId!), 'drawn from state before any message');
      assert.equal(a.closedSections, 1, 'the closed section stays closed');
      assert.deepEqual(a.posted, [{ type: 'ready' }], 'and it still asks the host for fresh content');
    } finally {
      await second.page.close();
    }
  });
});
